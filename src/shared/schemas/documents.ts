import { z } from 'zod';
import { lotProblem } from '../lots.ts';

/**
 * Safety and quality documents of a product family as the shop shows them (decision 028): the HDS (hoja de
 * datos de seguridad, NOM-018-STPS-2015) and the certificates of analysis per lot. Staff's forms are in
 * documents-admin.ts (kept apart so the public pages do not carry the back office's schemas).
 */

/** HDS and certificates: PDFs up to 10 MB, like the technical sheet (a manufacturer's HDS rarely passes 2 MB). */
export const SAFETY_DOC_MAX_BYTES = 10 * 1024 * 1024;

/** The lot as typed: trimmed, then judged by src/shared/lots.ts. */
export const lotField = z
  .string({ error: 'Escriba el número de lote' })
  .max(200, 'El número de lote tiene más de 40 caracteres')
  .transform((s) => s.trim())
  .superRefine((lot, ctx) => {
    const problem = lotProblem(lot);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** A certificate as the product page lists it. */
export const publicCertificateSchema = z.object({
  lot: z.string(),
  analysisDate: z.string().nullable(),
  expiryDate: z.string().nullable(),
  /** …/certificate.pdf?lot=…&v={hash} */
  url: z.string(),
});
export type PublicCertificate = z.infer<typeof publicCertificateSchema>;

/** GET /api/products/:code/certificate?lot=… */
export const certificateLookupQuerySchema = z.object({ lot: lotField });
export const certificateLookupSchema = z.object({ certificate: publicCertificateSchema });
