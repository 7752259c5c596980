import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckoutTestApp, createCheckoutApp } from '../../../../tests/server/support/staff.ts';
import { CLI_ACTOR } from '../../audit/log.ts';
import { importCatalogue } from './importer.ts';

/** The import's 'sobre pedido' columns (decision 029): backorder and lead_time_days, bad rows named and left out. */
let t: CheckoutTestApp;
beforeAll(async () => {
  t = await createCheckoutApp();
});
afterAll(() => t.close());

const run = (csv: string, dryRun = false) =>
  importCatalogue(t.db, new TextEncoder().encode(csv), {
    filename: 'sobre-pedido.csv',
    dryRun,
    strict: false,
    actor: CLI_ACTOR,
  });

const HEADER = 'code,name,group,price,stock,backorder,lead_time_days';

const rowsOf = async (prefix: string) =>
  (
    await t.db.execute<{
      code: string;
      backorderable: boolean;
      lead_min_days: number | null;
      lead_max_days: number | null;
    }>(
      sql`select code, backorderable, lead_min_days, lead_max_days from products where code like ${`${prefix}%`} order by code`,
    )
  ).rows;

describe('import: sobre pedido', () => {
  it('imports the flag with its lead time (dry run first); "no" clears the lead time', async () => {
    const csv = [
      HEADER,
      'SP-A,Bureta 50 mL,REA-SOL,850.00,3,sí,10-15',
      'SP-B,Matraz 2 L,REA-SOL,420.00,0,si,7',
    ].join('\n');
    const dry = await run(csv, true);
    expect(dry.rejected).toEqual([]);
    expect(dry.created).toBe(2);
    expect(await rowsOf('SP-')).toEqual([]);
    const done = await run(csv);
    expect(done.created).toBe(2);
    expect(await rowsOf('SP-')).toEqual([
      { code: 'SP-A', backorderable: true, lead_min_days: 10, lead_max_days: 15 },
      { code: 'SP-B', backorderable: true, lead_min_days: 7, lead_max_days: 7 },
    ]);
    // A row that only changes the lead time keeps the stored flag; 'no' turns it off and clears the days.
    const again = await run(['code,lead_time_days', 'SP-A,12–20'].join('\n'));
    expect(again.rejected).toEqual([]);
    const off = await run(['code,backorder', 'SP-B,no'].join('\n'));
    expect(off.changes).toEqual([
      { line: 2, code: 'SP-B', kind: 'updated', fields: ['backorder', 'lead_time_days'] },
    ]);
    expect(await rowsOf('SP-')).toEqual([
      { code: 'SP-A', backorderable: true, lead_min_days: 12, lead_max_days: 20 },
      { code: 'SP-B', backorderable: false, lead_min_days: null, lead_max_days: null },
    ]);
  });

  it('bad rows are refused with a Spanish reason naming the column and the row; nothing of them is written', async () => {
    const csv = [
      HEADER,
      'SPX-1,Uno,REA-SOL,10.00,1,sí,15-10',
      'SPX-2,Dos,REA-SOL,10.00,1,sí,-3',
      'SPX-3,Tres,REA-SOL,10.00,1,sí,2.5',
      'SPX-4,Cuatro,REA-SOL,10.00,1,no,10-15',
      'SPX-5,Cinco,REA-SOL,10.00,1,,10-15',
      'SPX-6,Seis,REA-SOL,10.00,1,sí,',
      'SPX-7,Siete,REA-SOL,10.00,1,quizá,',
      'SPX-8,Ocho,REA-SOL,10.00,1,sí,pronto',
      'SPX-9,Nueve,REA-SOL,10.00,1,sí,0-5',
      'SPX-10,Diez,REA-SOL,10.00,1,sí,10-15',
    ].join('\n');
    const report = await run(csv);
    expect(report.rejected).toEqual([
      {
        line: 2,
        code: 'SPX-1',
        reasons: ['Columna lead_time_days: «15-10»: el mínimo (15) es mayor que el máximo (10)'],
      },
      { line: 3, code: 'SPX-2', reasons: ['Columna lead_time_days: «-3» no puede ser negativo'] },
      {
        line: 4,
        code: 'SPX-3',
        reasons: ['Columna lead_time_days: «2.5» debe ser un número entero de días hábiles'],
      },
      {
        line: 5,
        code: 'SPX-4',
        reasons: [
          'Columna lead_time_days: «10-15» sin sobre pedido; el tiempo de entrega solo aplica con backorder = sí',
        ],
      },
      {
        line: 6,
        code: 'SPX-5',
        reasons: [
          'Columna lead_time_days: el tiempo de entrega solo aplica a productos sobre pedido; indique backorder = sí',
        ],
      },
      {
        line: 7,
        code: 'SPX-6',
        reasons: [
          'Columna backorder: un producto sobre pedido necesita su tiempo de entrega en lead_time_days (p. ej. 10-15)',
        ],
      },
      { line: 8, code: 'SPX-7', reasons: ['Columna backorder: valor inválido «quizá» (sí o no)'] },
      {
        line: 9,
        code: 'SPX-8',
        reasons: ['Columna lead_time_days: «pronto» no se entiende (días hábiles, p. ej. 10-15 o 10)'],
      },
      { line: 10, code: 'SPX-9', reasons: ['Columna lead_time_days: «0-5»: el mínimo es 1 día hábil'] },
    ]);
    expect(report.created).toBe(1);
    expect((await rowsOf('SPX-')).map((r) => r.code)).toEqual(['SPX-10']);
  });
});
