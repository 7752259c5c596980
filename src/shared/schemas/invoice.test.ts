import { describe, expect, it } from 'vitest';
import {
  REGIMENES_FISCALES,
  rfcCheckDigit,
  USOS_CFDI,
  USOS_FOR_SALE,
  usoRefusalFor,
} from '../sat-catalogs.ts';
import {
  capitalRegimeMessage,
  GENERIC_RFC_MESSAGE,
  invoiceRequestSchema,
  REQUIRED,
  rfcCheckDigitMessage,
} from './invoice.ts';

/*
 * The expected tables are written here again, straight from issue 7 / SAT's c_RegimenFiscal and
 * c_UsoCFDI, independently of src/shared/sat-catalogs.ts, so a typo in either one fails a test.
 */
const MORAL_ONLY = ['601', '603', '620', '622', '623', '624'];
const FISICA_ONLY = ['605', '606', '607', '608', '611', '612', '614', '615', '616', '621', '625'];
const BOTH = ['610', '626'];
const ALL_REGIMENES = [...MORAL_ONLY, ...FISICA_ONLY, ...BOTH].sort();

const range = (prefix: string, from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${String(from + i).padStart(2, '0')}`);
const GENERAL = ['601', '603', '606', '612', '620', '621', '622', '623', '624', '625', '626'];
const ALLOWED: Record<string, string[]> = {
  ...Object.fromEntries(['G01', 'G03', ...range('I', 1, 8)].map((u) => [u, GENERAL])),
  G02: [...GENERAL, '616'],
  ...Object.fromEntries(
    range('D', 1, 10).map((u) => [u, ['605', '606', '607', '608', '611', '612', '614', '615', '625']]),
  ),
  // 601, 603, 605–608, 610–612, 614–616, 620–626 (S01 and CP01 alike, c_UsoCFDI 4.0)
  S01: [
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
  ],
  CP01: [
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
  ],
  CN01: ['605'],
};
const ALL_USOS = Object.keys(ALLOWED);

/*
 * A sale of laboratory goods (issue 14): CP01 (payment receipts), CN01 (payroll) and the personal
 * deductions D01–D10 never fit; G02 only on a credit note. Written out here, not derived from the code.
 */
const NOT_FOR_GOODS = ['CP01', 'CN01', ...range('D', 1, 10)];
const CREDIT_NOTE_ONLY = ['G02'];

const MORAL_RFC = 'LQB150101AB3'; // 12 characters
const FISICA_RFC = 'GODE561231GR8'; // 13 characters

const valid = {
  nombreFiscal: 'Laboratorios Químicos del Bajío',
  rfc: MORAL_RFC,
  regimenFiscal: '601',
  usoCfdi: 'G03',
  formaPago: '04',
  cp: '44100',
};

const issues = (value: unknown) => {
  const result = invoiceRequestSchema.safeParse(value);
  const found: Record<string, string> = {};
  // The first message of each field is the one the form and the API show.
  for (const issue of result.success ? [] : result.error.issues)
    found[issue.path.join('.')] ??= issue.message;
  return found;
};

describe('SAT catalogues offered by the form', () => {
  it('lists exactly the spec’s 19 regímenes and SAT’s 24 usos, each with a SAT description', () => {
    expect(REGIMENES_FISCALES.map((r) => r.code).sort()).toEqual(ALL_REGIMENES);
    expect(USOS_CFDI.map((u) => u.code).sort()).toEqual([...ALL_USOS].sort());
    expect(ALL_USOS).toHaveLength(24);
    for (const entry of [...REGIMENES_FISCALES, ...USOS_CFDI])
      expect(entry.description.length).toBeGreaterThan(3);
  });
});

describe('uso CFDI × régimen fiscal (every pair)', () => {
  const cases = ALL_USOS.flatMap((uso) =>
    ALL_REGIMENES.flatMap((regimen) => {
      const rfcs = [
        ...(MORAL_ONLY.includes(regimen) || BOTH.includes(regimen) ? [MORAL_RFC] : []),
        ...(FISICA_ONLY.includes(regimen) || BOTH.includes(regimen) ? [FISICA_RFC] : []),
      ];
      return rfcs.map((rfc) => ({ uso, regimen, rfc, allowed: ALLOWED[uso]?.includes(regimen) ?? false }));
    }),
  );

  it('covers all 24 × 19 pairs (both persona types for 610 and 626)', () => {
    expect(new Set(cases.map((c) => `${c.uso}/${c.regimen}`)).size).toBe(24 * 19);
    expect(cases).toHaveLength(24 * 21);
  });

  it.each(cases)(
    '$uso with régimen $regimen ($rfc) → allowed: $allowed',
    ({ uso, regimen, rfc, allowed }) => {
      const found = issues({ ...valid, rfc, regimenFiscal: regimen, usoCfdi: uso });
      const description = USOS_CFDI.find((u) => u.code === uso)?.description;
      if (NOT_FOR_GOODS.includes(uso)) {
        expect(found).toEqual({
          usoCfdi: `El uso ${uso} (${description}) no aplica a la compra de material de laboratorio`,
        });
      } else if (CREDIT_NOTE_ONLY.includes(uso)) {
        expect(found).toEqual({ usoCfdi: `El uso ${uso} (${description}) solo se usa en notas de crédito` });
      } else if (allowed) expect(found).toEqual({});
      else expect(found).toEqual({ usoCfdi: `El uso ${uso} no corresponde al régimen fiscal ${regimen}` });
    },
  );
});

describe('usos for a sale of laboratory goods', () => {
  it('the form offers S01 and none of CP01, CN01, D01–D10 or G02', () => {
    const offered = USOS_FOR_SALE.map((u) => u.code);
    expect(offered).toContain('S01');
    expect([...offered].sort()).toEqual(
      ALL_USOS.filter((u) => !NOT_FOR_GOODS.includes(u) && !CREDIT_NOTE_ONLY.includes(u)).sort(),
    );
  });

  it('S01 is accepted for régimen 616 (sin obligaciones fiscales)', () => {
    expect(issues({ ...valid, rfc: FISICA_RFC, regimenFiscal: '616', usoCfdi: 'S01' })).toEqual({});
  });

  it('G02 is refused on an invoice and allowed on a credit note', () => {
    expect(usoRefusalFor('G02', 'I')).toMatch(/solo se usa en notas de crédito/);
    expect(usoRefusalFor('G02', 'E')).toBeNull();
    expect(usoRefusalFor('CP01', 'E')).toMatch(/no aplica/);
  });
});

describe('régimen fiscal × persona type', () => {
  it.each(MORAL_ONLY)('%s is refused for a persona física RFC', (regimen) => {
    expect(
      issues({ ...valid, rfc: FISICA_RFC, regimenFiscal: regimen, usoCfdi: 'CP01' }).regimenFiscal,
    ).toMatch(/es para personas morales/);
  });
  it.each(FISICA_ONLY)('%s is refused for a persona moral RFC', (regimen) => {
    expect(
      issues({ ...valid, rfc: MORAL_RFC, regimenFiscal: regimen, usoCfdi: 'CP01' }).regimenFiscal,
    ).toMatch(/es para personas físicas/);
  });
});

describe('fields', () => {
  it('requires every field with the spec’s message', () => {
    expect(issues({})).toEqual({
      nombreFiscal: REQUIRED,
      rfc: REQUIRED,
      regimenFiscal: REQUIRED,
      usoCfdi: REQUIRED,
      cp: REQUIRED,
    });
    expect(issues({ ...valid, nombreFiscal: '   ', cp: '' })).toEqual({
      nombreFiscal: REQUIRED,
      cp: REQUIRED,
    });
  });

  it('nombreFiscal needs at least 10 characters', () => {
    expect(issues({ ...valid, nombreFiscal: 'Ana Pérez' })).toEqual({
      nombreFiscal: 'Escriba su nombre completo',
    });
    expect(issues({ ...valid, nombreFiscal: 'Ana Pérez.' })).toEqual({});
    expect(issues({ ...valid, nombreFiscal: 'Laboratorio | Uno' }).nombreFiscal).toMatch(/\|/);
  });

  it.each([
    ['ABC12', 'Escriba un rfc válido'],
    ['ABCD9912311234', 'Escriba un rfc válido'],
    [
      'ABC9912311',
      'Escriba el RFC completo con homoclave: 12 caracteres (persona moral) o 13 (persona física)',
    ],
    ['AB1C991231AB1', 'El RFC no tiene el formato del SAT'],
    ['ABC991231ABB', 'El RFC no tiene el formato del SAT'],
    ['ABC991331AB1', 'La fecha contenida en el RFC no es válida'],
    ['ABC990230AB1', 'La fecha contenida en el RFC no es válida'],
    ['ABC010229AB1', 'La fecha contenida en el RFC no es válida'],
    ['XAXX010101000', GENERIC_RFC_MESSAGE],
    ['xexx010101000', GENERIC_RFC_MESSAGE],
  ])('rfc %s → %s', (rfc, message) => {
    expect(issues({ ...valid, rfc }).rfc).toBe(message);
  });

  it('accepts RFCs with Ñ and &, leap days, and upper-cases and trims them', () => {
    expect(invoiceRequestSchema.parse({ ...valid, rfc: ' ñ&a000229ab8 ' }).rfc).toBe('Ñ&A000229AB8');
  });

  // SAT's modulo-11 check digit, on RFCs whose digit is known to be right (SAT's test issuer, SAT itself, a PAC).
  it.each(['EKU9003173C9', 'SAT970701NN3', 'LSO1306189R5', 'SPR190613I52', 'GODE561231GR8', 'CACX7605101P8'])(
    'rfc %s has a matching check digit',
    (rfc) => {
      expect(rfcCheckDigit(rfc)).toBe(rfc.slice(-1));
      const persona = rfc.length === 12 ? { regimenFiscal: '601' } : { regimenFiscal: '612' };
      expect(issues({ ...valid, ...persona, rfc })).toEqual({});
    },
  );

  it('a wrong check digit is refused with the expected one, unless the shopper confirms the RFC', () => {
    expect(issues({ ...valid, rfc: 'LQB150101AB9' })).toEqual({ rfc: rfcCheckDigitMessage('3') });
    expect(issues({ ...valid, rfc: 'GODE561231GR1', regimenFiscal: '612' })).toEqual({
      rfc: rfcCheckDigitMessage('8'),
    });
    // SAT has issued a few RFCs that fail the algorithm: confirmed as written, they pass.
    expect(issues({ ...valid, rfc: 'LQB150101AB9', rfcConfirmado: true })).toEqual({});
    expect(issues({ ...valid, rfc: 'LQB150101AB9', rfcConfirmado: false })).toEqual({
      rfc: rfcCheckDigitMessage('3'),
    });
  });

  it.each([
    ['Laboratorios del Bajío S.A. de C.V.', 'S.A. de C.V.', 'Laboratorios del Bajío'],
    ['LABORATORIOS DEL BAJIO SA DE CV', 'SA DE CV', 'LABORATORIOS DEL BAJIO'],
    ['Química Fina, S. de R.L. de C.V.', 'S. de R.L. de C.V.', 'Química Fina'],
    ['Grupo Analítico S.A.P.I. de C.V.', 'S.A.P.I. de C.V.', 'Grupo Analítico'],
    ['Sociedad de Químicos del Bajío A.C.', 'A.C.', 'Sociedad de Químicos del Bajío'],
    ['Servicios Clínicos Jalisco S.C.', 'S.C.', 'Servicios Clínicos Jalisco'],
    ['Distribuidora Científica SAS', 'SAS', 'Distribuidora Científica'],
  ])('razón social %s → without «%s»', (nombreFiscal, suffix, without) => {
    expect(issues({ ...valid, nombreFiscal })).toEqual({
      nombreFiscal: capitalRegimeMessage(suffix, without),
    });
  });

  it('names without a régimen de capital pass, and a persona física is never checked for one', () => {
    expect(issues({ ...valid, nombreFiscal: 'Laboratorios Químicos del Bajío' })).toEqual({});
    expect(issues({ ...valid, nombreFiscal: 'Casa Sac Laboratorios' })).toEqual({});
    expect(
      issues({ ...valid, rfc: FISICA_RFC, regimenFiscal: '612', nombreFiscal: 'María Olivia Martínez Sa' }),
    ).toEqual({});
  });

  it('régimen, uso and forma de pago must come from the lists', () => {
    expect(issues({ ...valid, regimenFiscal: '609' })).toEqual({
      regimenFiscal: 'Seleccione un régimen fiscal de la lista',
    });
    expect(issues({ ...valid, usoCfdi: 'S02' })).toEqual({
      usoCfdi: 'Seleccione un uso de CFDI de la lista',
    });
    expect(issues({ ...valid, formaPago: '01' })).toEqual({
      formaPago: 'Seleccione una forma de pago de la lista',
    });
    expect(issues({ ...valid, formaPago: '28' })).toEqual({});
    // The invoice takes its FormaPago from the payment: the field may be left out.
    expect(issues({ ...valid, formaPago: undefined })).toEqual({});
  });

  it.each([
    ['4410', 'El código postal debe tener 5 dígitos'],
    ['441000', 'El código postal debe tener 5 dígitos'],
    ['44a00', 'Escriba un número válido'],
    ['12345678901', 'Escriba un número válido'],
  ])('cp %s → %s', (cp, message) => {
    expect(issues({ ...valid, cp }).cp).toBe(message);
  });

  // Without SAT's c_CodigoPostal loaded, a code whose first two digits are no state's cannot be a fiscal address.
  it.each(['00000', '00100', '17000', '18999', '19530'])('cp %s cannot exist in Mexico: refused', (cp) => {
    expect(issues({ ...valid, cp }).cp).toBe(
      'Ese código postal no existe en México: sus dos primeros dígitos no corresponden a ningún estado. Escriba el de su Constancia de Situación Fiscal',
    );
  });

  it.each(['01000', '16999', '20000', '44530', '86035', '99999'])(
    'cp %s is in a state’s range: accepted',
    (cp) => {
      expect(issues({ ...valid, cp })).toEqual({});
    },
  );
});
