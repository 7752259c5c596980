import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { DATASHEET_MAX_BYTES, IMAGE_MAX_BYTES } from '../../shared/schemas/admin.ts';
import { SAFETY_DOC_MAX_BYTES } from '../../shared/schemas/documents.ts';
import { sniffImageType } from '../catalog/media.ts';

/** '6.00 MB' for a file's size; the limits are whole megabytes ('5 MB'). */
export const sizeText = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
export const limitText = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** Why these bytes cannot be a product picture (JPEG, PNG or WebP up to 5 MB, judged by content), or null. */
export async function imageProblem(data: Buffer): Promise<string | null> {
  if (data.length === 0) return 'La imagen está vacía';
  if (data.length > IMAGE_MAX_BYTES)
    return `La imagen pesa ${sizeText(data.length)}; el límite es ${limitText(IMAGE_MAX_BYTES)}`;
  const type = sniffImageType(data);
  if (type !== 'image/jpeg' && type !== 'image/png' && type !== 'image/webp')
    return 'La imagen debe ser JPEG, PNG o WebP';
  try {
    const meta = await sharp(data).metadata();
    if (!meta.width || !meta.height) return 'La imagen está dañada o incompleta';
    if (meta.width * meta.height > 40_000_000) return 'La imagen es demasiado grande (más de 40 megapíxeles)';
  } catch {
    return 'La imagen está dañada o incompleta';
  }
  return null;
}

/**
 * Why these bytes cannot be the PDF named `what` ('La ficha técnica'), or null: judged by content, never by the
 * name or the browser's type. The header `%PDF-` must open the file (within its first KB, as readers allow);
 * with `parse`, pdf-lib must also read its cross-reference table and find at least one page, so a renamed
 * Word file or a PDF cut off in transit is refused at upload rather than failing in the buyer's viewer.
 */
export async function pdfProblem(
  data: Buffer,
  what: string,
  max: number,
  options: { parse: boolean },
): Promise<string | null> {
  if (data.length === 0) return `${what} está ${what.startsWith('El ') ? 'vacío' : 'vacía'}`;
  if (data.length > max) return `${what} pesa ${sizeText(data.length)}; el límite es ${limitText(max)}`;
  if (data.subarray(0, 1024).indexOf('%PDF-') === -1) return `${what} no es un PDF`;
  if (!options.parse) return null;
  try {
    const doc = await PDFDocument.load(data, {
      ignoreEncryption: true,
      updateMetadata: false,
      throwOnInvalidObject: false,
    });
    if (doc.getPageCount() < 1) return `${what} es un PDF sin páginas`;
  } catch {
    return `${what} es un PDF dañado o incompleto`;
  }
  return null;
}

/** Why these bytes cannot be a datasheet (a PDF up to 10 MB, judged by its %PDF- header), or null. */
export const datasheetProblem = (data: Buffer) =>
  pdfProblem(data, 'La ficha técnica', DATASHEET_MAX_BYTES, { parse: false });

/** Why these bytes cannot be a safety data sheet (HDS) or a certificate of analysis (a PDF that opens). */
export const safetyDocProblem = (data: Buffer, what: string) =>
  pdfProblem(data, what, SAFETY_DOC_MAX_BYTES, { parse: true });
