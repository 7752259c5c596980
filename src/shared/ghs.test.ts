import { describe, expect, it } from 'vitest';
import {
  GRADES,
  HAZARD_STATEMENTS,
  PICTOGRAMS,
  PRECAUTIONARY_STATEMENTS,
  parseGrade,
  parseMolarMass,
  parsePictograms,
  parseSignalWord,
  parseStatementCodes,
} from './ghs.ts';

/** Every single hazard statement of CLP Annex III (H200–H420) and of the UN GHS that CLP leaves out. */
const SINGLE_H = [
  ...[
    '200',
    '201',
    '202',
    '203',
    '204',
    '205',
    '220',
    '221',
    '222',
    '223',
    '224',
    '225',
    '226',
    '228',
    '229',
  ],
  ...[
    '230',
    '231',
    '232',
    '240',
    '241',
    '242',
    '250',
    '251',
    '252',
    '260',
    '261',
    '270',
    '271',
    '272',
    '280',
  ],
  ...[
    '281',
    '290',
    '300',
    '301',
    '302',
    '304',
    '310',
    '311',
    '312',
    '314',
    '315',
    '317',
    '318',
    '319',
    '330',
  ],
  ...[
    '331',
    '332',
    '334',
    '335',
    '336',
    '340',
    '341',
    '350',
    '351',
    '360',
    '361',
    '362',
    '370',
    '371',
    '372',
  ],
  ...['373', '400', '410', '411', '412', '413', '420'],
  ...['227', '303', '305', '313', '316', '320', '333', '401', '402'],
].map((n) => `H${n}`);

describe('the official GHS/SGA list (src/shared/ghs.ts)', () => {
  it('has the nine pictograms with Spanish names', () => {
    expect(PICTOGRAMS.map((p) => p.code)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => `GHS0${n}`));
    for (const p of PICTOGRAMS) expect(p.name).toMatch(/^[A-ZÁÉÍÓÚ][a-záéíóúñ ]+$/);
  });

  it('has every single H code, and every code of both lists has a Spanish text ending in a full stop or colon', () => {
    for (const code of SINGLE_H) expect(HAZARD_STATEMENTS[code], code).toBeTruthy();
    for (const [code, text] of [
      ...Object.entries(HAZARD_STATEMENTS),
      ...Object.entries(PRECAUTIONARY_STATEMENTS),
    ]) {
      expect(code).toMatch(/^[HP]\d{3}[A-Za-z]{0,2}(\+[HP]\d{3})*$/);
      expect(text.trim(), code).toBe(text);
      expect(text, code).toMatch(/[.:…]$/);
      // Spanish, not an English leftover.
      expect(text, code).not.toMatch(/\b(the|and|with|may|cause|wear|store)\b/i);
    }
  });

  it('every combined code is made of listed single codes, and its text starts like its first part', () => {
    for (const list of [HAZARD_STATEMENTS, PRECAUTIONARY_STATEMENTS]) {
      for (const code of Object.keys(list).filter((c) => c.includes('+'))) {
        const parts = code.split('+');
        for (const part of parts) expect(list[part], `${part} of ${code}`).toBeTruthy();
        const first = list[parts[0]!]!;
        if (first.endsWith(':')) expect(list[code]!.startsWith(first), code).toBe(true);
      }
    }
  });

  it('has the single P codes of each section and the combinations labs see most', () => {
    for (const code of [
      'P101',
      'P201',
      'P210',
      'P260',
      'P264',
      'P270',
      'P273',
      'P280',
      'P301',
      'P310',
      'P338',
    ]) {
      expect(PRECAUTIONARY_STATEMENTS[code], code).toBeTruthy();
    }
    for (const code of [
      'P403',
      'P405',
      'P501',
      'P301+P310',
      'P305+P351+P338',
      'P303+P361+P353',
      'P301+P330+P331',
    ])
      expect(PRECAUTIONARY_STATEMENTS[code], code).toBeTruthy();
  });

  it('reads codes as people type them and names the first unknown one', () => {
    expect(parseStatementCodes('h290, H314;H335 h314', 'H')).toEqual({ codes: ['H290', 'H314', 'H335'] });
    expect(parseStatementCodes('P305 + P351 + P338 p280', 'P')).toEqual({
      codes: ['P305+P351+P338', 'P280'],
    });
    expect(parseStatementCodes('P305+351+338', 'P')).toEqual({ codes: ['P305+P351+P338'] });
    // The suffix's case carries meaning: one listed code in another case is taken, an ambiguous one is not.
    expect(parseStatementCodes('H350i H360Fd h361FD', 'H')).toEqual({ codes: ['H350i', 'H360Fd', 'H361fd'] });
    expect(parseStatementCodes('H360fd', 'H')).toEqual({ unknown: 'H360fd' });
    expect(parseStatementCodes('h350I H360Fd', 'H')).toEqual({ codes: ['H350i', 'H360Fd'] });
    expect(parseStatementCodes('H290 H999', 'H')).toEqual({ unknown: 'H999' });
    expect(parseStatementCodes('H290', 'P')).toEqual({ unknown: 'H290' });
    expect(parseStatementCodes('P999+P310', 'P')).toEqual({ unknown: 'P999+P310' });
    expect(parseStatementCodes('', 'H')).toEqual({ codes: [] });
    expect(parsePictograms('ghs7 GHS05, 5')).toEqual({ codes: ['GHS05', 'GHS07'] });
    expect(parsePictograms('GHS10')).toEqual({ unknown: 'GHS10' });
    expect(parseSignalWord('ATENCION')).toBe('warning');
    expect(parseSignalWord('Peligro')).toBe('danger');
    expect(parseSignalWord('Cuidado')).toBeNull();
    expect(parseGrade('grado hplc')).toBe('HPLC');
    expect(parseGrade('ra')).toBe('RA');
    expect(parseGrade('Ultra')).toBeNull();
    expect(GRADES.length).toBeGreaterThanOrEqual(6);
    expect(parseMolarMass('36,46')).toBe(36.46);
    expect(parseMolarMass('-36.46')).toBeNull();
    expect(parseMolarMass('0')).toBeNull();
  });
});
