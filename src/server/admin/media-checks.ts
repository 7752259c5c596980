import sharp from 'sharp';
import { DATASHEET_MAX_BYTES, IMAGE_MAX_BYTES } from '../../shared/schemas/admin.ts';
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

/** Why these bytes cannot be a datasheet (a PDF up to 10 MB, judged by its %PDF- header), or null. */
export function datasheetProblem(data: Buffer): string | null {
  if (data.length === 0) return 'La ficha técnica está vacía';
  if (data.length > DATASHEET_MAX_BYTES)
    return `La ficha técnica pesa ${sizeText(data.length)}; el límite es ${limitText(DATASHEET_MAX_BYTES)}`;
  if (data.subarray(0, 1024).indexOf('%PDF-') === -1) return 'La ficha técnica no es un PDF';
  return null;
}
