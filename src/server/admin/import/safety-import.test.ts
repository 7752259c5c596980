import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckoutTestApp, createCheckoutApp } from '../../../../tests/server/support/staff.ts';
import { CLI_ACTOR } from '../../audit/log.ts';
import { importCatalogue } from './importer.ts';

/**
 * The import's reagent safety columns (decision 027): a round trip through the CSV with the dry run, and bad
 * cells refused with a Spanish reason naming the column, on the row's line, nothing of the row written.
 */
let t: CheckoutTestApp;
beforeAll(async () => {
  t = await createCheckoutApp();
});
afterAll(() => t.close());

const run = (csv: string, dryRun = false) =>
  importCatalogue(t.db, new TextEncoder().encode(csv), {
    filename: 'reactivos.csv',
    dryRun,
    actor: CLI_ACTOR,
    batchSize: 2,
  });

const HEADER =
  'code,name,group,price,family,presentation,cas_number,formula,molar_mass,grade,ghs_pictograms,signal_word,hazard_statements,precautionary_statements,storage_conditions';

const rowsOf = async (prefix: string) =>
  (
    await t.db.execute<
      Record<string, unknown>
    >(sql`select code, cas_number, molar_mass::float8 as molar_mass, grade,
      ghs_pictograms, signal_word, hazard_statements, precautionary_statements, storage_conditions
      from products where code like ${`${prefix}%`} order by code`)
  ).rows;

describe('import: reagent safety data', () => {
  it('a dry run writes nothing; the import stores the codes in the list’s spelling; the same file again changes nothing', async () => {
    const csv = [
      HEADER,
      'SUL-1L,Ácido sulfúrico 98 %,REA-ACI,560.00,,1 L,7664-93-9,H2SO4,"98,079",ra,GHS05,Peligro,"h290 H314","P280; P301+330+331 P305 + P351 + P338",Entre 15 y 25 °C',
      'SUL-4L,Ácido sulfúrico 98 %,REA-ACI,1790.00,SUL-1L,4 L,7664-93-9,H2SO4,,,,,,,',
      'NACL-1,Cloruro de sodio,REA-BAS,150,,,7647-14-5,NaCl,58.44,Grado ACS,,,,,En lugar seco',
    ].join('\n');
    const dry = await run(csv, true);
    expect(dry.rejected).toEqual([]);
    expect(dry.created).toBe(3);
    expect(await rowsOf('SUL-')).toEqual([]);

    const real = await run(csv);
    expect(real.rejected).toEqual([]);
    expect(await rowsOf('SUL-')).toEqual([
      {
        code: 'SUL-1L',
        cas_number: '7664-93-9',
        molar_mass: 98.079,
        grade: 'RA',
        ghs_pictograms: ['GHS05'],
        signal_word: 'danger',
        hazard_statements: ['H290', 'H314'],
        precautionary_statements: ['P280', 'P301+P330+P331', 'P305+P351+P338'],
        storage_conditions: 'Entre 15 y 25 °C',
      },
      {
        code: 'SUL-4L',
        cas_number: '7664-93-9',
        molar_mass: null,
        grade: null,
        ghs_pictograms: [],
        signal_word: null,
        hazard_statements: [],
        precautionary_statements: [],
        storage_conditions: null,
      },
    ]);
    const again = await run(csv);
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 3, rejected: [] });

    // A changed code list is one updated field.
    const changed = await run(
      [HEADER.split(',').slice(0, 1).concat('hazard_statements').join(','), 'SUL-1L,H290 H314 H335'].join(
        '\n',
      ),
    );
    expect(changed.changes).toEqual([
      { line: 2, code: 'SUL-1L', kind: 'updated', fields: ['hazard_statements'] },
    ]);
  });

  it('refuses a bad CAS, an unknown pictogram, H or P code, grade or signal word, a negative molar mass and safety data on a presentation — naming the column, nothing written', async () => {
    const good = 'BAD-0,Reactivo,REA-ACI,100,,,7647-01-0,HCl,36.46,ACS,GHS05,Peligro,H314,P280,';
    const bad = (code: string, cells: Partial<Record<string, string>>) => {
      const columns = HEADER.split(',');
      const values = good.split(',');
      values[0] = code;
      for (const [k, v] of Object.entries(cells)) values[columns.indexOf(k)] = v!;
      return values.map((v) => (v.includes(' ') ? `"${v}"` : v)).join(',');
    };
    const csv = [
      HEADER,
      bad('BAD-1', { cas_number: '7647-01-1' }),
      bad('BAD-2', { ghs_pictograms: 'GHS05 GHS10' }),
      bad('BAD-3', { hazard_statements: 'H314 H999' }),
      bad('BAD-4', { precautionary_statements: 'P280 P305+P351+P999' }),
      bad('BAD-5', { molar_mass: '-36.46' }),
      bad('BAD-6', { grade: 'Ultrapuro' }),
      bad('BAD-7', { signal_word: 'Cuidado' }),
      bad('BAD-8', { family: 'SUL-1L' }),
      good,
    ].join('\n');
    const report = await run(csv);
    const reasons = Object.fromEntries(report.rejected.map((r) => [r.line, r.reasons.join(' | ')]));
    expect(reasons).toEqual({
      2: 'Número CAS inválido «7647-01-1» (p. ej. 7664-93-9; el dígito verificador no corresponde)',
      3: 'Columna ghs_pictograms: pictograma desconocido «GHS10» (use GHS01 a GHS09, separados por espacios)',
      4: 'Columna hazard_statements: «H999» no es una indicación de peligro de la lista oficial del SGA (p. ej. H290 H314 H335)',
      5: 'Columna precautionary_statements: «P305+P351+P999» no es un consejo de prudencia de la lista oficial del SGA (p. ej. P280 P305+P351+P338)',
      6: 'Columna molar_mass: masa molar inválida «-36.46» (g/mol, un número mayor que cero, p. ej. 36.46)',
      7: 'Columna grade: grado desconocido «Ultrapuro» (use ACS, RA, HPLC, ESPECTRO, USP, FCC, BM, QP, TEC)',
      8: 'Columna signal_word: «Cuidado» no es una palabra de advertencia (Peligro o Atención)',
      9: expect.stringContaining(
        '«BAD-8» es una presentación de «SUL-1L»; los datos de seguridad se capturan en el producto base «SUL-1L»',
      ),
    });
    expect(report.created).toBe(1);
    expect((await rowsOf('BAD-')).map((r) => r.code)).toEqual(['BAD-0']);
  });

  it('a product with safety data joins a family only when its row empties the safety columns', async () => {
    const header =
      'code,family,molar_mass,grade,ghs_pictograms,signal_word,hazard_statements,precautionary_statements,storage_conditions';
    const keeps = await run([header.split(',').slice(0, 2).join(','), 'BAD-0,SUL-1L'].join('\n'));
    expect(keeps.rejected[0]?.reasons[0]).toMatch(
      /^Columna family: «BAD-0» tiene datos de seguridad propios/,
    );
    const clears = await run([header, 'BAD-0,SUL-1L,,,,,,,'].join('\n'));
    expect(clears.rejected).toEqual([]);
    expect(await rowsOf('BAD-0')).toMatchObject([{ grade: null, ghs_pictograms: [], hazard_statements: [] }]);
  });
});
