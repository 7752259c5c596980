/**
 * Lot numbers of certificates of analysis (decision 028): as printed on the label, trimmed, 1–40 printable
 * ASCII characters (letters, digits, spaces inside, - / . _ and the like). One lot per family whatever its
 * letter case: the buyer types 'sh1234' for the label's 'SH1234'.
 */
export const LOT_MAX_LENGTH = 40;
const PRINTABLE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** Why this (trimmed) text cannot be a lot number, or null. */
export function lotProblem(lot: string): string | null {
  if (lot.length === 0) return 'Escriba el número de lote';
  if (lot.length > LOT_MAX_LENGTH) return `El número de lote tiene más de ${LOT_MAX_LENGTH} caracteres`;
  if (!PRINTABLE.test(lot))
    return 'El número de lote solo admite letras sin acentos, números y signos imprimibles (- / . _)';
  return null;
}

/** The key a lot is unique and found by. */
export const lotKey = (lot: string) => lot.trim().toUpperCase();

/** A file name part from a code or lot: what Content-Disposition carries safely everywhere. */
export const fileNamePart = (text: string) => text.replace(/[^\w.-]/g, '_');
