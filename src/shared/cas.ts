/**
 * CAS registry numbers (Chemical Abstracts Service): 2–7 digits, 2 digits and a check digit, joined by hyphens
 * ('7664-93-9'). The check digit is the sum of the other digits, each multiplied by its position counted from the
 * right (1, 2, 3…), modulo 10 — CAS's own published rule (cas.org, "CAS Registry Number check digit").
 */
const CAS_SHAPE = /^(\d{2,7})-(\d{2})-(\d)$/;

/** Accepts the hyphenated form with surrounding spaces, or the bare digits ('7664939'); returns the canonical form. */
export function normalizeCas(input: string): string | null {
  const text = input.trim();
  if (CAS_SHAPE.test(text)) return text.replace(/^0+(?=\d{2,}-)/, '');
  if (/^\d{5,10}$/.test(text))
    return `${text.slice(0, -3)}-${text.slice(-3, -1)}-${text.slice(-1)}`.replace(/^0+(?=\d{2,}-)/, '');
  return null;
}

export function casCheckDigitOk(cas: string): boolean {
  const m = CAS_SHAPE.exec(cas);
  if (!m) return false;
  const digits = `${m[1]}${m[2]}`;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[digits.length - 1 - i]) * (i + 1);
  return sum % 10 === Number(m[3]);
}

/** The canonical CAS number when `input` is one with a correct check digit; otherwise null. */
export function parseCas(input: string): string | null {
  const cas = normalizeCas(input);
  return cas && casCheckDigitOk(cas) ? cas : null;
}

/** Does this search text look like a CAS number (so search should try an exact CAS match first)? */
export function looksLikeCas(input: string): boolean {
  return normalizeCas(input) !== null && /-/.test(input);
}
