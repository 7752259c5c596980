import { describe, expect, it } from 'vitest';
import { checkClabe, clabeBank, clabeEnding } from './clabe.ts';
import { clabeSchema } from './schemas/clabe.ts';

/**
 * Published CLABEs, so the check digits are not computed by the code under test: Openpay's payout example
 * (BBVA, open-pay/slate `payments.md`), its SPEI charge example (STP, `charges.md`) and a Banamex example
 * quoted by public CLABE validators.
 */
const PUBLISHED = [
  ['012298026516924616', 'BBVA México'],
  ['646180109400135624', 'STP'],
  ['002010077777777771', 'Banamex'],
] as const;

describe('CLABE', () => {
  it.each(PUBLISHED)('%s is valid and belongs to %s', (clabe, bank) => {
    expect(checkClabe(clabe)).toEqual({ ok: true, clabe, bank });
  });

  it('accepts it as people write it (spaces, hyphens) and answers the 18 digits', () => {
    expect(checkClabe(' 012 298 0265169246-16 ')).toMatchObject({ ok: true, clabe: '012298026516924616' });
  });

  it.each([
    ['', 'La CLABE debe tener 18 dígitos'],
    ['01229802651692461', 'La CLABE debe tener 18 dígitos'],
    ['0122980265169246160', 'La CLABE debe tener 18 dígitos'],
    ['01229802651692461A', 'La CLABE debe tener 18 dígitos'],
    // One digit changed, and two digits swapped: the check digit catches both.
    ['012298026516924617', 'El dígito verificador de la CLABE no es válido'],
    ['012298062516924616', 'El dígito verificador de la CLABE no es válido'],
    ['102298026516924616', 'El dígito verificador de la CLABE no es válido'],
    // A correct check digit on a code no institution has (999).
    ['999180000000000002', 'Los primeros 3 dígitos de la CLABE no corresponden a un banco'],
  ])('refuses %j: %s', (clabe, message) => {
    expect(checkClabe(clabe)).toEqual({ ok: false, message });
  });

  it('names the bank of the main institutions by their ABM code', () => {
    const banks: Record<string, string> = {
      '012': 'BBVA México',
      '002': 'Banamex',
      '014': 'Santander',
      '072': 'Banorte',
      '021': 'HSBC',
      '044': 'Scotiabank',
      '036': 'Inbursa',
      '127': 'Banco Azteca',
      '137': 'BanCoppel',
      '058': 'Banregio',
      '030': 'Banco del Bajío',
      '646': 'STP',
      '062': 'Afirme',
      '019': 'Banjército',
      '042': 'Mifel',
      '132': 'Multiva',
      '638': 'Nu México',
    };
    for (const [code, bank] of Object.entries(banks)) expect(clabeBank(`${code}180000000000000`)).toBe(bank);
    expect(clabeBank('999180000000000000')).toBeNull();
  });

  it('names the account by its last 4 digits in messages', () => {
    expect(clabeEnding('012298026516924616')).toBe('terminada en 4616');
  });

  it('one schema for the form and the server: the digits out, the Spanish reason otherwise', () => {
    expect(clabeSchema.parse('0122 9802 6516 9246 16')).toBe('012298026516924616');
    const refused = clabeSchema.safeParse('012298026516924617');
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe('El dígito verificador de la CLABE no es válido');
    expect(clabeSchema.safeParse(12).error?.issues[0]?.message).toBe('Escriba la CLABE de 18 dígitos');
  });
});
