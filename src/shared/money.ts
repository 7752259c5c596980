/** Money is integer centavos everywhere; prices include IVA (16 %). */
export const IVA_RATE = 0.16;

const formatter = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 123456 → "1,234.56" (thousands with commas, two decimals, as the spec shows prices). */
export function formatAmount(cents: number): string {
  return formatter.format(cents / 100);
}

/** List cards: "$1,234.56 mxn". */
export function formatPriceCard(cents: number): string {
  return `$${formatAmount(cents)} mxn`;
}

/** Product detail: "$1,234.56 MXN". */
export function formatPriceDetail(cents: number): string {
  return `$${formatAmount(cents)} MXN`;
}

/** Totals and summaries: "$1,234.56". */
export function formatMoney(cents: number): string {
  return `$${formatAmount(cents)}`;
}

/** The IVA contained in an IVA-included amount: total − round(total / 1.16). */
export function includedIva(totalCents: number): number {
  return totalCents - Math.round(totalCents / (1 + IVA_RATE));
}

/**
 * Parses a price written by people or legacy systems: "1234.5", "1,234.50", "1234,50" (Spanish decimal comma),
 * "$ 1 234,50". Returns centavos, or null when the text is not a price.
 */
export function parsePriceToCents(text: string): number | null {
  let s = text.trim().replace(/^\$/, '').replace(/\s+/g, '').replace(/mxn$/i, '');
  if (s === '') return null;
  const lastComma = s.lastIndexOf(',');
  const lastDot = s.lastIndexOf('.');
  if (lastComma > lastDot) {
    // Comma is the decimal separator when it has 1–2 digits after it; otherwise a thousands separator.
    const decimals = s.length - lastComma - 1;
    s = decimals <= 2 ? s.replace(/\./g, '').replace(',', '.') : s.replace(/,/g, '');
  } else {
    s = s.replace(/,/g, '');
  }
  if (!/^\d+(\.\d{1,2})?$/.test(s)) return null;
  const [whole, frac = ''] = s.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}
