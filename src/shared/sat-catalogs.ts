/**
 * The SAT CFDI 4.0 catalogue entries the invoice form offers, with SAT's own descriptions
 * (c_RegimenFiscal, c_UsoCFDI, c_FormaPago as published by the SAT; see reference/mexico.md).
 * Shared by the browser form and the server, so both apply the same rules.
 */

export type PersonaType = 'fisica' | 'moral';

export type Regimen = { code: string; description: string; personas: readonly PersonaType[] };

const F = ['fisica'] as const;
const M = ['moral'] as const;
const FM = ['fisica', 'moral'] as const;

/** The spec's 19 régimen codes, in SAT order, with the persona types each one applies to. */
export const REGIMENES_FISCALES: readonly Regimen[] = [
  { code: '601', description: 'General de Ley Personas Morales', personas: M },
  { code: '603', description: 'Personas Morales con Fines no Lucrativos', personas: M },
  { code: '605', description: 'Sueldos y Salarios e Ingresos Asimilados a Salarios', personas: F },
  { code: '606', description: 'Arrendamiento', personas: F },
  { code: '607', description: 'Régimen de Enajenación o Adquisición de Bienes', personas: F },
  { code: '608', description: 'Demás ingresos', personas: F },
  {
    code: '610',
    description: 'Residentes en el Extranjero sin Establecimiento Permanente en México',
    personas: FM,
  },
  { code: '611', description: 'Ingresos por Dividendos (socios y accionistas)', personas: F },
  { code: '612', description: 'Personas Físicas con Actividades Empresariales y Profesionales', personas: F },
  { code: '614', description: 'Ingresos por intereses', personas: F },
  { code: '615', description: 'Régimen de los ingresos por obtención de premios', personas: F },
  { code: '616', description: 'Sin obligaciones fiscales', personas: F },
  {
    code: '620',
    description: 'Sociedades Cooperativas de Producción que optan por diferir sus ingresos',
    personas: M,
  },
  { code: '621', description: 'Incorporación Fiscal', personas: F },
  { code: '622', description: 'Actividades Agrícolas, Ganaderas, Silvícolas y Pesqueras', personas: M },
  { code: '623', description: 'Opcional para Grupos de Sociedades', personas: M },
  { code: '624', description: 'Coordinados', personas: M },
  {
    code: '625',
    description: 'Régimen de las Actividades Empresariales con ingresos a través de Plataformas Tecnológicas',
    personas: F,
  },
  { code: '626', description: 'Régimen Simplificado de Confianza', personas: FM },
];

/**
 * What a uso CFDI may be used on in this shop, which sells laboratory goods:
 * - 'sale': the shop's invoices (Comprobante de ingreso) and its credit notes;
 * - 'credit-note': only on credit notes (CFDI de egreso): G02 'Devoluciones, descuentos o bonificaciones';
 * - 'none': never here: CP01 is for payment receipts, CN01 for payroll, D01–D10 are personal deductions
 *   (medical fees, tuition…) that a purchase of lab goods cannot be.
 */
export type UsoScope = 'sale' | 'credit-note' | 'none';

export type UsoCfdi = { code: string; description: string; regimenes: readonly string[]; scope: UsoScope };

// Régimen lists of c_UsoCFDI (column "Régimen Fiscal Receptor"); S01 and CP01 share PAGOS.
const GENERAL = ['601', '603', '606', '612', '620', '621', '622', '623', '624', '625', '626'] as const;
const DEDUCCIONES = ['605', '606', '607', '608', '611', '612', '614', '615', '625'] as const;
const PAGOS = [
  '601',
  '603',
  '605',
  '606',
  '607',
  '608',
  '610',
  '611',
  '612',
  '614',
  '615',
  '616',
  '620',
  '621',
  '622',
  '623',
  '624',
  '625',
  '626',
] as const;

/**
 * SAT's c_UsoCFDI for CFDI 4.0 (G01–G03, I01–I08, D01–D10, S01, CP01, CN01) with the regímenes each one
 * allows (column "Régimen Fiscal Receptor") and where this shop may use it (see UsoScope).
 */
export const USOS_CFDI: readonly UsoCfdi[] = [
  { code: 'G01', description: 'Adquisición de mercancías', regimenes: GENERAL, scope: 'sale' },
  {
    code: 'G02',
    description: 'Devoluciones, descuentos o bonificaciones',
    regimenes: [...GENERAL, '616'],
    scope: 'credit-note',
  },
  { code: 'G03', description: 'Gastos en general', regimenes: GENERAL, scope: 'sale' },
  { code: 'I01', description: 'Construcciones', regimenes: GENERAL, scope: 'sale' },
  {
    code: 'I02',
    description: 'Mobiliario y equipo de oficina por inversiones',
    regimenes: GENERAL,
    scope: 'sale',
  },
  { code: 'I03', description: 'Equipo de transporte', regimenes: GENERAL, scope: 'sale' },
  { code: 'I04', description: 'Equipo de computo y accesorios', regimenes: GENERAL, scope: 'sale' },
  {
    code: 'I05',
    description: 'Dados, troqueles, moldes, matrices y herramental',
    regimenes: GENERAL,
    scope: 'sale',
  },
  { code: 'I06', description: 'Comunicaciones telefónicas', regimenes: GENERAL, scope: 'sale' },
  { code: 'I07', description: 'Comunicaciones satelitales', regimenes: GENERAL, scope: 'sale' },
  { code: 'I08', description: 'Otra maquinaria y equipo', regimenes: GENERAL, scope: 'sale' },
  {
    code: 'D01',
    description: 'Honorarios médicos, dentales y gastos hospitalarios',
    regimenes: DEDUCCIONES,
    scope: 'none',
  },
  {
    code: 'D02',
    description: 'Gastos médicos por incapacidad o discapacidad',
    regimenes: DEDUCCIONES,
    scope: 'none',
  },
  { code: 'D03', description: 'Gastos funerales', regimenes: DEDUCCIONES, scope: 'none' },
  { code: 'D04', description: 'Donativos', regimenes: DEDUCCIONES, scope: 'none' },
  {
    code: 'D05',
    description: 'Intereses reales efectivamente pagados por créditos hipotecarios (casa habitación)',
    regimenes: DEDUCCIONES,
    scope: 'none',
  },
  { code: 'D06', description: 'Aportaciones voluntarias al SAR', regimenes: DEDUCCIONES, scope: 'none' },
  { code: 'D07', description: 'Primas por seguros de gastos médicos', regimenes: DEDUCCIONES, scope: 'none' },
  {
    code: 'D08',
    description: 'Gastos de transportación escolar obligatoria',
    regimenes: DEDUCCIONES,
    scope: 'none',
  },
  {
    code: 'D09',
    description: 'Depósitos en cuentas para el ahorro, primas que tengan como base planes de pensiones',
    regimenes: DEDUCCIONES,
    scope: 'none',
  },
  {
    code: 'D10',
    description: 'Pagos por servicios educativos (colegiaturas)',
    regimenes: DEDUCCIONES,
    scope: 'none',
  },
  { code: 'S01', description: 'Sin efectos fiscales', regimenes: PAGOS, scope: 'sale' },
  { code: 'CP01', description: 'Pagos', regimenes: PAGOS, scope: 'none' },
  { code: 'CN01', description: 'Nómina', regimenes: ['605'], scope: 'none' },
];

/** c_FormaPago entries the shop accepts: the order was paid by card. */
export const FORMAS_PAGO = [
  { code: '04', description: 'Tarjeta de crédito' },
  { code: '28', description: 'Tarjeta de débito' },
] as const;

/** Público en general and extranjero: a CFDI to them is not an invoice the shopper can request. */
export const GENERIC_RFCS = ['XAXX010101000', 'XEXX010101000'] as const;

/** The receptor of a factura global and of its egresos (RMF 2.7.1.21; Guía de llenado del CFDI global). */
export const PUBLICO_EN_GENERAL = {
  rfc: 'XAXX010101000',
  nombre: 'PUBLICO EN GENERAL',
  regimenFiscal: '616',
  usoCfdi: 'S01',
} as const;

export const RFC_SHAPE = /^[A-ZÑ&]{3,4}\d{6}[A-Z\d]{2}[A\d]$/;

export const findRegimen = (code: string) => REGIMENES_FISCALES.find((r) => r.code === code);
export const findUsoCfdi = (code: string) => USOS_CFDI.find((u) => u.code === code);

export const isGenericRfc = (rfc: string) => (GENERIC_RFCS as readonly string[]).includes(rfc.toUpperCase());

/** 12 characters = persona moral, 13 = persona física; anything else is not an RFC. */
export function personaOfRfc(rfc: string): PersonaType | undefined {
  if (rfc.length === 12) return 'moral';
  if (rfc.length === 13) return 'fisica';
  return undefined;
}

/**
 * The RFC's YYMMDD is a real calendar date. The century is unknown, so 29 February is accepted
 * whenever YY is a leap year in 19YY or 20YY (for two digits that is YY divisible by 4).
 */
export function rfcHasRealDate(rfc: string): boolean {
  const letters = rfc.length - 9;
  const digits = rfc.slice(letters, letters + 6);
  if (!/^\d{6}$/.test(digits)) return false;
  const yy = Number(digits.slice(0, 2));
  const mm = Number(digits.slice(2, 4));
  const dd = Number(digits.slice(4, 6));
  if (mm < 1 || mm > 12 || dd < 1) return false;
  const days = [31, yy % 4 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mm - 1] ?? 0;
  return dd <= days;
}

/** Character values of the RFC check-digit algorithm: 0–9, A–N, &, O–Z, space, Ñ (0…38). */
const RFC_DIGIT_VALUES = '0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ';

/**
 * The RFC's check digit (the last character of the homoclave), SAT's modulo-11 algorithm: the first 11
 * (moral, padded with a leading space) or 12 (física) characters, each value × (13 − position), summed;
 * 11 − (sum mod 11), where 11 is written '0' and 10 'A'.
 */
export function rfcCheckDigit(rfc: string): string {
  const body = rfc.slice(0, -1).padStart(12, ' ');
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Math.max(0, RFC_DIGIT_VALUES.indexOf(body[i] ?? ' ')) * (13 - i);
  const digit = 11 - (sum % 11);
  return digit === 11 ? '0' : digit === 10 ? 'A' : String(digit);
}

export const rfcCheckDigitMatches = (rfc: string) => rfc.slice(-1) === rfcCheckDigit(rfc);

/**
 * Régimen de capital at the end of a persona moral's name ('S.A. DE C.V.', 'S. DE R.L. DE C.V.', 'A.C.'…).
 * CFDI 4.0 wants the name exactly as the Constancia de Situación Fiscal writes it, without this part
 * (Anexo 20, Receptor/Nombre; the PAC refuses the CFDI with CFDI40145 otherwise). Compared without
 * dots and commas.
 */
const CAPITAL_REGIME =
  /\s(S\s?A\s?(P\s?I\s?)?(B\s?)?(DE\s+C\s?V)?|S\s?A\s?S(\s+DE\s+C\s?V)?|S\s+DE\s+R\s?L(\s+DE\s+C\s?V|\s+MI)?|S\s?C(\s+DE\s+(R\s?L|C)(\s+DE\s+C\s?V)?)?(\s+DE\s+R\s?L)?|S\s?C\s?P|A\s?C|I\s?A\s?P|S\s+EN\s+(N\s?C|C(\s?S|\s+POR\s+A)?)|S\s?P\s?R(\s+DE\s+R\s?[LI])?|S\s?N\s?C)$/;

/** The régimen de capital written at the end of the name (as written), or null. */
export function capitalRegimeIn(name: string): { suffix: string; without: string } | null {
  const compact = name.toUpperCase().replace(/[.,]/g, ' ').replace(/\s+/g, ' ').trim();
  const match = CAPITAL_REGIME.exec(compact);
  if (!match) return null;
  const without = compact.slice(0, match.index).trim();
  if (without.length === 0) return null;
  // The suffix as the shopper wrote it: the tail of the original beyond the kept words.
  const words = without.split(' ').length;
  const original = name.trim().split(/\s+/);
  return {
    suffix: original.slice(words).join(' '),
    without: original
      .slice(0, words)
      .join(' ')
      .replace(/[\s,]+$/, ''),
  };
}

/** SAT's c_RegimenFiscal: does this régimen apply to this persona type? */
export function regimenFitsPersona(regimen: string, persona: PersonaType): boolean {
  return findRegimen(regimen)?.personas.includes(persona) ?? false;
}

/** The usos the invoice form offers: those that fit a sale of laboratory goods. */
export const USOS_FOR_SALE: readonly UsoCfdi[] = USOS_CFDI.filter((u) => u.scope === 'sale');

/**
 * Why this uso cannot go on this kind of CFDI of the shop ('I' invoice, 'E' credit note), or null when it
 * can (the régimen matrix is checked apart, by usoAllowedForRegimen).
 */
export function usoRefusalFor(uso: string, tipo: 'I' | 'E'): string | null {
  const found = findUsoCfdi(uso);
  if (!found) return null;
  if (found.scope === 'none') {
    return `El uso ${found.code} (${found.description}) no aplica a la compra de material de laboratorio`;
  }
  if (found.scope === 'credit-note' && tipo === 'I') {
    return `El uso ${found.code} (${found.description}) solo se usa en notas de crédito`;
  }
  return null;
}

/** SAT's c_UsoCFDI: may a receptor under this régimen use this uso? */
export function usoAllowedForRegimen(uso: string, regimen: string): boolean {
  return findUsoCfdi(uso)?.regimenes.includes(regimen) ?? false;
}

export const personaLabel = (persona: PersonaType) =>
  persona === 'moral' ? 'personas morales (RFC de 12 caracteres)' : 'personas físicas (RFC de 13 caracteres)';
