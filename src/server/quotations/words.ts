/**
 * An amount in words as Mexican commercial documents print it ('importe con letra'):
 * 123456 centavos → 'UN MIL DOSCIENTOS TREINTA Y CUATRO PESOS 56/100 M.N.'
 */
const UNITS = [
  '',
  'UN',
  'DOS',
  'TRES',
  'CUATRO',
  'CINCO',
  'SEIS',
  'SIETE',
  'OCHO',
  'NUEVE',
  'DIEZ',
  'ONCE',
  'DOCE',
  'TRECE',
  'CATORCE',
  'QUINCE',
  'DIECISÉIS',
  'DIECISIETE',
  'DIECIOCHO',
  'DIECINUEVE',
  'VEINTE',
  'VEINTIÚN',
  'VEINTIDÓS',
  'VEINTITRÉS',
  'VEINTICUATRO',
  'VEINTICINCO',
  'VEINTISÉIS',
  'VEINTISIETE',
  'VEINTIOCHO',
  'VEINTINUEVE',
];
const TENS = ['', '', '', 'TREINTA', 'CUARENTA', 'CINCUENTA', 'SESENTA', 'SETENTA', 'OCHENTA', 'NOVENTA'];
const HUNDREDS = [
  '',
  'CIENTO',
  'DOSCIENTOS',
  'TRESCIENTOS',
  'CUATROCIENTOS',
  'QUINIENTOS',
  'SEISCIENTOS',
  'SETECIENTOS',
  'OCHOCIENTOS',
  'NOVECIENTOS',
];

/** 0–999. */
function upTo999(n: number): string {
  if (n === 100) return 'CIEN';
  const h = Math.floor(n / 100);
  const rest = n % 100;
  const parts: string[] = [];
  if (h > 0) parts.push(HUNDREDS[h]!);
  if (rest > 0 && rest < 30) parts.push(UNITS[rest]!);
  else if (rest >= 30) {
    const t = Math.floor(rest / 10);
    const u = rest % 10;
    parts.push(u === 0 ? TENS[t]! : `${TENS[t]} Y ${UNITS[u]}`);
  }
  return parts.join(' ');
}

export function integerInWords(n: number): string {
  if (n === 0) return 'CERO';
  const millions = Math.floor(n / 1_000_000);
  const thousands = Math.floor((n % 1_000_000) / 1000);
  const rest = n % 1000;
  const parts: string[] = [];
  if (millions > 0) parts.push(millions === 1 ? 'UN MILLÓN' : `${integerInWords(millions)} MILLONES`);
  // Mexican documents write 'UN MIL' (1,000 → 'UN MIL PESOS'), as invoices and checks do.
  if (thousands > 0) parts.push(`${upTo999(thousands)} MIL`);
  if (rest > 0) parts.push(upTo999(rest));
  return parts.join(' ');
}

export function amountInWords(cents: number): string {
  const pesos = Math.floor(cents / 100);
  const centavos = String(cents % 100).padStart(2, '0');
  const de = pesos >= 1_000_000 && pesos % 1_000_000 === 0 ? ' DE' : '';
  return `${integerInWords(pesos)}${de} ${pesos === 1 ? 'PESO' : 'PESOS'} ${centavos}/100 M.N.`;
}
