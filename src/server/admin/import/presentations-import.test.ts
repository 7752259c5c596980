import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createStaff,
  type Shopper,
} from '../../../../tests/server/support/staff.ts';
import { CLI_ACTOR } from '../../audit/log.ts';
import { importCatalogue } from './importer.ts';

/**
 * The import's new columns (decision 021): family, presentation and price_breaks — a round trip through the CSV,
 * the dry run, and bad rows refused with a Spanish reason naming the column, nothing of them written.
 */
let t: CheckoutTestApp;
let staff: Shopper;
beforeAll(async () => {
  t = await createCheckoutApp();
  staff = await createStaff(t);
});
afterAll(() => t.close());

const run = (csv: string, dryRun = false, strict = false) =>
  importCatalogue(t.db, new TextEncoder().encode(csv), {
    filename: 'presentaciones.csv',
    dryRun,
    strict,
    actor: CLI_ACTOR,
    batchSize: 2,
  });

const HEADER = 'code,name,group,price,stock,family,presentation,price_breaks,cas_number,formula';

const rowsOf = async (prefix: string) =>
  (
    await t.db.execute<{
      code: string;
      family_code: string | null;
      presentation_label: string | null;
      price_cents: number;
      breaks: string | null;
    }>(sql`select p.code, p.family_code, p.presentation_label, p.price_cents,
      (select string_agg(b.min_quantity || ':' || b.price_cents, ';' order by b.min_quantity)
         from price_breaks b where b.product_code = p.code) as breaks
      from products p where p.code like ${`${prefix}%`} order by p.code`)
  ).rows;

describe('import: presentations and volume prices', () => {
  it('a dry run reports the family without writing; the import then creates it; the same file again changes nothing', async () => {
    const csv = [
      HEADER,
      'MET-1L,Metanol grado HPLC,REA-SOL,520.00,10,,1 L,10:494.00;50:468.00,67-56-1,CH3OH',
      'MET-4L,Metanol grado HPLC,REA-SOL,"2,300.00",4,MET-1L,4 L,,67-56-1,CH3OH',
      'MET-20L,Metanol grado HPLC,REA-SOL,9800,0,MET-1L,20 L,,67-56-1,CH3OH',
    ].join('\n');
    const dry = await run(csv, true);
    expect(dry.rejected).toEqual([]);
    expect(dry.created).toBe(3);
    expect(await rowsOf('MET-')).toEqual([]);

    const real = await run(csv);
    expect(real.rejected).toEqual([]);
    expect(real.created).toBe(3);
    expect(await rowsOf('MET-')).toEqual([
      {
        code: 'MET-1L',
        family_code: null,
        presentation_label: '1 L',
        price_cents: 52_000,
        breaks: '10:49400;50:46800',
      },
      {
        code: 'MET-20L',
        family_code: 'MET-1L',
        presentation_label: '20 L',
        price_cents: 980_000,
        breaks: null,
      },
      {
        code: 'MET-4L',
        family_code: 'MET-1L',
        presentation_label: '4 L',
        price_cents: 230_000,
        breaks: null,
      },
    ]);
    const again = await run(csv);
    expect(again.unchanged).toBe(3);
    expect(again.updated).toBe(0);

    // The product page of the family shows it.
    const page = (await t.app.inject({ url: '/api/products/MET-20L' })).json<{
      presentations: { code: string }[];
    }>();
    expect(page.presentations.map((p) => p.code)).toEqual(['MET-1L', 'MET-4L', 'MET-20L']);
  });

  it('changes and clears volume prices; an empty family cell makes a product its own family again', async () => {
    const report = await run(['code,price_breaks,family', 'MET-1L,12:480.00,', 'MET-20L,,'].join('\n'));
    expect(report.rejected).toEqual([]);
    expect(report.changes.map((c) => [c.code, c.fields])).toEqual([
      ['MET-1L', ['price_breaks']],
      ['MET-20L', ['family']],
    ]);
    const rows = await rowsOf('MET-');
    expect(rows.find((r) => r.code === 'MET-1L')?.breaks).toBe('12:48000');
    expect(rows.find((r) => r.code === 'MET-20L')?.family_code).toBeNull();
  });

  it('refuses bad rows with the column named, and writes nothing of them', async () => {
    const csv = [
      HEADER,
      // A family that does not exist.
      'BAD-1,Producto,REA-SOL,100,1,NO-EXISTE,1 L,,,',
      // A family that is itself a presentation.
      'BAD-2,Producto,REA-SOL,100,1,MET-4L,1 L,,,',
      // Two breaks from the same quantity.
      'BAD-3,Producto,REA-SOL,100,1,,,10:90;10:80,,',
      // A break at zero.
      'BAD-4,Producto,REA-SOL,100,1,,,10:0,,',
      // A break above the unit price.
      'BAD-5,Producto,REA-SOL,100,1,,,10:120,,',
      // Not of the form quantity:price.
      'BAD-6,Producto,REA-SOL,100,1,,,diez por 90,,',
      // A presentation without a price.
      'BAD-7,Producto,REA-SOL,,1,MET-1L,500 mL,,,',
      // An invalid CAS check digit.
      'BAD-8,Producto,REA-SOL,100,1,,,,67-56-2,',
      // A product with presentations of its own joining another family.
      'MET-1L,,,,,MET-20L,,,,',
    ].join('\n');
    const report = await run(csv);
    const reasons = Object.fromEntries(report.rejected.map((r) => [r.code, r.reasons.join(' | ')]));
    expect(reasons['BAD-1']).toContain('Columna family: el producto «NO-EXISTE» no existe');
    expect(reasons['BAD-2']).toContain('«MET-4L» es a su vez una presentación de «MET-1L»');
    expect(reasons['BAD-3']).toContain('Columna price_breaks: Hay dos precios por volumen desde 10 piezas');
    expect(reasons['BAD-4']).toContain(
      'Columna price_breaks: El precio por volumen desde 10 piezas debe ser mayor que cero',
    );
    expect(reasons['BAD-5']).toContain(
      'Columna price_breaks: El precio desde 10 piezas ($120.00) debe ser menor que el precio unitario ($100.00)',
    );
    expect(reasons['BAD-6']).toContain('Columna price_breaks: «diez por 90» no se entiende');
    expect(reasons['BAD-7']).toContain('Producto nuevo sin price');
    expect(reasons['BAD-8']).toContain('Número CAS inválido «67-56-2»');
    expect(reasons['MET-1L']).toContain(
      '«MET-1L» tiene presentaciones propias y no puede pasar a otra familia',
    );
    // Each reason names its line.
    expect(report.rejected.map((r) => r.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await rowsOf('BAD-')).toEqual([]);
    expect((await rowsOf('MET-1L'))[0]?.family_code).toBeNull();
  });

  it('a strict import with one bad row imports nothing at all', async () => {
    const csv = [HEADER, 'OK-1,Producto,REA-SOL,100,1,,,,,', 'OK-2,Producto,REA-SOL,100,1,,,5:100,,'].join(
      '\n',
    );
    const report = await run(csv, false, true);
    expect(report.rejected).toHaveLength(1);
    expect(report.message).toContain('No se importó nada');
    expect(await rowsOf('OK-')).toEqual([]);
  });

  it('the admin form saves family, presentation and volume prices, and refuses bad ones naming the field', async () => {
    const put = (fields: Record<string, unknown>) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/admin/products/MET-20L',
        headers: { cookie: staff.cookie },
        payload: {
          name: 'Metanol grado HPLC',
          groupClas: 'REA-SOL',
          price: '9800.00',
          weightKg: '17',
          ...fields,
        },
      });
    const ok = await put({
      familyCode: 'MET-1L',
      presentationLabel: '20 L',
      priceBreaks: '5:9500;10:9200.50',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().product).toMatchObject({
      familyCode: 'MET-1L',
      presentationLabel: '20 L',
      priceBreaks: '5:9500.00;10:9200.50',
    });
    const overlap = await put({ familyCode: 'MET-1L', priceBreaks: '5:9500;5:9400' });
    expect(overlap.statusCode).toBe(400);
    expect(overlap.json().error.fields.priceBreaks).toBe('Hay dos precios por volumen desde 5 piezas');
    const chain = await put({ familyCode: 'MET-4L' });
    expect(chain.statusCode).toBe(400);
    expect(chain.json().error.fields.familyCode).toBe(
      'MET-4L es una presentación de MET-1L; indique la familia MET-1L',
    );
    expect((await rowsOf('MET-20L'))[0]).toMatchObject({
      family_code: 'MET-1L',
      breaks: '5:950000;10:920050',
    });
  });
});
