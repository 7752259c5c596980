/** Money is integer centavos everywhere; prices include IVA (16 %). */
export const IVA_RATE = 0.16;

/**
 * 1234567 → "1,234,567": an integer with commas between thousands, as `toLocaleString('en-US')` writes it. By hand,
 * not through Intl: the first Intl.NumberFormat of a page costs the browser ≈ 15 ms of ICU set-up (×4 on a
 * mid-range phone), on the main thread while the page starts (docs/decisions/019, 2026-11-24 addendum).
 */
export function groupThousands(n: number): string {
  const digits = String(Math.abs(Math.round(n)));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 && digits !== '0' ? `-${out}` : out;
}

/**
 * 1234.567 → "1,234.57", 2.5 → "2.5": a quantity (a weight in kg) with at most `maxFractionDigits` decimals, as
 * `toLocaleString('es-MX', { maximumFractionDigits })` writes it (half away from zero on the decimal digits), by
 * hand for the same reason as groupThousands.
 */
export function formatDecimal(n: number, maxFractionDigits = 2): string {
  const abs = Math.abs(n);
  const text = String(abs);
  // Rounded on the number's decimal digits ("12.345" → 12.35), as ICU does, not on its binary value.
  const scaled = Math.round(
    text.includes('e') ? abs * 10 ** maxFractionDigits : Number(`${text}e${maxFractionDigits}`),
  );
  const unit = 10 ** maxFractionDigits;
  const fraction = String(scaled % unit)
    .padStart(maxFractionDigits, '0')
    .replace(/0+$/, '');
  const out = `${groupThousands(Math.floor(scaled / unit))}${fraction ? `.${fraction}` : ''}`;
  return n < 0 && scaled !== 0 ? `-${out}` : out;
}

/** 123456 → "1,234.56" (thousands with commas, two decimals, as the spec shows prices). */
export function formatAmount(cents: number): string {
  const abs = Math.abs(Math.round(cents));
  const text = `${groupThousands(Math.floor(abs / 100))}.${String(abs % 100).padStart(2, '0')}`;
  return cents < 0 && abs !== 0 ? `-${text}` : text;
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

/**
 * The base of an IVA-included amount, round(cents / 1.16) half up, in integers (no floating-point surprises at .5):
 * the CFDI's Importe and Base of one concept.
 */
export function baseOfIvaIncluded(totalCents: number): number {
  if (!Number.isSafeInteger(totalCents) || totalCents < 0) throw new RangeError('importe inválido');
  return Math.floor((totalCents * 200 + 116) / 232);
}

/** The IVA contained in one IVA-included amount (one CFDI concept): total − base, so base + IVA = total exactly. */
export function includedIva(totalCents: number): number {
  return totalCents - baseOfIvaIncluded(totalCents);
}

/**
 * The IVA of a sale, as its CFDI states it: taken out of each concept (every line's amount, and shipping) and
 * added up. The one IVA of the cart's quote, the order (receipt, mails), the quotation and the CFDI: taking it
 * out of the total at once (total − round(total / 1.16)) differs from the CFDI's sum by a centavo in some sales,
 * because each concept's rounding is its own (docs/decisions/048).
 */
export function saleIva(conceptTotalsCents: readonly number[]): number {
  return conceptTotalsCents.reduce((sum, cents) => sum + includedIva(cents), 0);
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
