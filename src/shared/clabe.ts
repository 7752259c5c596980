/**
 * CLABE (Clave Bancaria Estandarizada): the 18-digit account number every SPEI transfer goes to — bank (3),
 * plaza (3), account (11) and a check digit (1). Shared by the buyer's form and the server, so both refuse the
 * same numbers with the same words before any money is sent to them.
 */

export const CLABE_LENGTH = 18;

export const CLABE_MESSAGES = {
  length: 'La CLABE debe tener 18 dígitos',
  checkDigit: 'El dígito verificador de la CLABE no es válido',
  bank: 'Los primeros 3 dígitos de la CLABE no corresponden a un banco',
} as const;

/**
 * The institutions a CLABE's first 3 digits name: the last three digits of each participant's SPEI key
 * (Banxico's institution codes: 40xxx banks, 37xxx development banks, 90xxx other SPEI participants), as
 * published in the SPEI participant list of a payout provider's documentation (dotaZealot/pagsmile
 * `payout/bank-code/bank-in-mexico.md`: e.g. BBVA MEXICO 40012, NU MEXICO 90638, STP 90646). Settlement systems
 * that hold no customer accounts (CLS, INDEVAL, CoDi Valida) are left out. ALBO and Fondeadora accounts are
 * CLABEs of STP (646), as that list notes.
 */
export const CLABE_BANKS: Readonly<Record<string, string>> = {
  '001': 'Banxico',
  '002': 'Banamex',
  '006': 'Bancomext',
  '009': 'Banobras',
  '012': 'BBVA México',
  '014': 'Santander',
  '019': 'Banjército',
  '021': 'HSBC',
  '030': 'Banco del Bajío',
  '036': 'Inbursa',
  '042': 'Mifel',
  '044': 'Scotiabank',
  '058': 'Banregio',
  '059': 'Invex',
  '060': 'Bansi',
  '062': 'Afirme',
  '072': 'Banorte',
  '106': 'Bank of America',
  '108': 'MUFG',
  '110': 'J.P. Morgan',
  '112': 'Bmonex',
  '113': 'Ve por Más',
  '127': 'Banco Azteca',
  '128': 'Autofin',
  '129': 'Barclays',
  '130': 'Compartamos',
  '132': 'Multiva',
  '133': 'Actinver',
  '135': 'Nafin',
  '136': 'Intercam Banco',
  '137': 'BanCoppel',
  '138': 'ABC Capital',
  '140': 'Consubanco',
  '141': 'Volkswagen Bank',
  '143': 'CIBanco',
  '145': 'Bbase',
  '147': 'Bankaool',
  '148': 'PagaTodo',
  '150': 'Inmobiliario Mexicano',
  '151': 'Dondé Banco',
  '152': 'Bancrea',
  '154': 'Banco Covalto',
  '155': 'ICBC',
  '156': 'Sabadell',
  '157': 'Shinhan',
  '158': 'Mizuho Bank',
  '159': 'Bank of China',
  '160': 'Banco S3',
  '166': 'Banco del Bienestar',
  '168': 'Hipotecaria Federal',
  '600': 'Monex Casa de Bolsa',
  '601': 'GBM',
  '602': 'Masari',
  '605': 'Value',
  '608': 'Vector',
  '616': 'Finamex',
  '617': 'Valmex',
  '620': 'Profuturo',
  '630': 'Intercam Casa de Bolsa',
  '631': 'CI Bolsa',
  '634': 'Fincomún',
  '638': 'Nu México',
  '646': 'STP',
  '652': 'Credicapital',
  '653': 'Kuspit',
  '656': 'Unagra',
  '659': 'ASP Integra OPC',
  '661': 'Alternativos',
  '670': 'Libertad',
  '677': 'Caja Popular Mexicana',
  '680': 'Cristóbal Colón',
  '683': 'Caja Telefonistas',
  '684': 'Transfer',
  '685': 'Fondo (FIRA)',
  '686': 'Invercap',
  '688': 'Crediclub',
  '689': 'Fomped',
  '706': 'Arcus',
  '710': 'NVIO',
  '722': 'Mercado Pago W',
  '723': 'Cuenca',
};

/**
 * The check digit of a CLABE's first 17 digits, per Banxico's rule: weights 3, 7, 1 repeated; the sum of
 * (digit × weight mod 10); check = (10 − sum mod 10) mod 10.
 */
export function clabeCheckDigit(first17: string): number {
  const weights = [3, 7, 1] as const;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += ((first17.charCodeAt(i) - 48) * weights[i % 3]!) % 10;
  return (10 - (sum % 10)) % 10;
}

/** What the buyer typed, without the spaces and hyphens people write CLABEs with. */
export function normalizeClabe(input: string): string {
  return input.replace(/[\s-]/g, '');
}

export type ClabeCheck = { ok: true; clabe: string; bank: string } | { ok: false; message: string };

/** Validates a CLABE (after normalizeClabe): its length, its check digit, then its bank. */
export function checkClabe(input: string): ClabeCheck {
  const clabe = normalizeClabe(input);
  if (!/^\d{18}$/.test(clabe)) return { ok: false, message: CLABE_MESSAGES.length };
  if (clabeCheckDigit(clabe) !== Number(clabe[17])) return { ok: false, message: CLABE_MESSAGES.checkDigit };
  const bank = CLABE_BANKS[clabe.slice(0, 3)];
  if (!bank) return { ok: false, message: CLABE_MESSAGES.bank };
  return { ok: true, clabe, bank };
}

/** The bank a CLABE belongs to, by its first 3 digits; null when no institution has that code. */
export function clabeBank(clabe: string): string | null {
  return CLABE_BANKS[normalizeClabe(clabe).slice(0, 3)] ?? null;
}

/** How messages name the account without showing it whole: 'terminada en 1234'. */
export function clabeEnding(clabe: string): string {
  return `terminada en ${normalizeClabe(clabe).slice(-4)}`;
}
