import { z } from 'zod';
import { base64 } from './admin.ts';
import { lotField, publicCertificateSchema, SAFETY_DOC_MAX_BYTES } from './documents.ts';

/** Staff's forms for the HDS and the certificates of analysis (decision 028). */

/** '2026-02-28' yes; '2026-02-30', '28/02/2026' no. */
const isCalendarDate = (s: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};

const optionalDate = (label: string) =>
  z
    .string()
    .trim()
    .transform((s) => s || null)
    .nullable()
    .optional()
    .refine((s) => s == null || isCalendarDate(s), {
      message: `${label}: escriba una fecha válida (AAAA-MM-DD)`,
    })
    .transform((s) => s ?? null);

/** PUT /api/admin/products/:code/hds */
export const uploadSafetySheetSchema = z.object({
  contentBase64: base64(SAFETY_DOC_MAX_BYTES, 'la hoja de datos de seguridad (PDF)'),
});

/** POST /api/admin/products/:code/certificates */
export const uploadCertificateSchema = z
  .object({
    lot: lotField,
    analysisDate: optionalDate('Fecha de análisis'),
    expiryDate: optionalDate('Fecha de caducidad'),
    contentBase64: base64(SAFETY_DOC_MAX_BYTES, 'el certificado de análisis (PDF)'),
  })
  .refine((c) => !c.analysisDate || !c.expiryDate || c.expiryDate > c.analysisDate, {
    message: 'La fecha de caducidad debe ser posterior a la de análisis',
    path: ['expiryDate'],
  });
export type UploadCertificate = z.input<typeof uploadCertificateSchema>;

/** GET /api/admin/products/:code/documents: the family's HDS and certificates as staff see them. */
export const adminCertificateSchema = publicCertificateSchema.extend({
  id: z.number().int(),
  bytes: z.number().int(),
  uploadedAt: z.string(),
  uploadedBy: z.string().nullable(),
});
export type AdminCertificate = z.infer<typeof adminCertificateSchema>;

export const productDocumentsSchema = z.object({
  /** The family's base code: where the documents live, shared by every presentation. */
  familyCode: z.string(),
  hds: z
    .object({
      url: z.string(),
      bytes: z.number().int(),
      uploadedAt: z.string(),
      uploadedBy: z.string().nullable(),
    })
    .nullable(),
  certificates: z.array(adminCertificateSchema),
});
export type ProductDocuments = z.infer<typeof productDocumentsSchema>;
export const productDocumentsResponseSchema = z.object({
  message: z.string(),
  documents: productDocumentsSchema,
});
export const certificateIdParamsSchema = z.object({
  code: z.string().min(1, 'Producto no encontrado').max(64, 'Producto no encontrado'),
  id: z.coerce
    .number()
    .int('Certificado no encontrado')
    .positive('Certificado no encontrado')
    .max(9e15, 'Certificado no encontrado'),
});
