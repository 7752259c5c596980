import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  createStaff,
  type Shopper,
  stockOf,
} from '../../../../tests/server/support/staff.ts';
import { CLI_ACTOR } from '../../audit/log.ts';
import { ImportFileError, importCatalogue } from './importer.ts';

const fixture = readFileSync(
  new URL('../../../../tests/server/fixtures/productos-con-errores.csv', import.meta.url),
);
let t: CheckoutTestApp;
let staff: Shopper;
let dir: string;
beforeAll(async () => {
  t = await createCheckoutApp();
  staff = await createStaff(t);
  dir = mkdtempSync(join(tmpdir(), 'import-test-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

const run = (
  bytes: Uint8Array,
  dryRun: boolean,
  extra: Partial<Parameters<typeof importCatalogue>[2]> = {},
) =>
  importCatalogue(t.db, bytes, {
    filename: 'productos.csv',
    dryRun,
    actor: CLI_ACTOR,
    batchSize: 2,
    ...extra,
  });

const product = async (code: string) =>
  (
    await t.db.execute<{
      name: string;
      brand: string;
      price_cents: number;
      stock: number;
      weight_kg: string;
      long_desc_html: string;
      active: boolean;
      sat_unit_key: string | null;
      image_hash: string | null;
      datasheet_hash: string | null;
    }>(
      sql`select name, brand, price_cents, stock, weight_kg, long_desc_html, active, sat_unit_key, image_hash, datasheet_hash from products where code = ${code}`,
    )
  ).rows[0];

const EXPECTED_REJECTIONS = [
  {
    line: 4,
    code: 'IMP-003',
    reasons: ['Grupo desconocido «GRUPO-INEXISTENTE» (use la clave CLAS de un grupo existente)'],
  },
  { line: 5, code: 'IMP-004', reasons: ['La existencia no puede ser negativa (-4)'] },
  { line: 6, code: 'IMP-005', reasons: ['Precio inválido «doce pesos» (p. ej. 1234.50 o 1234,50)'] },
  { line: 7, code: 'IMP-001', reasons: ['Código repetido: ya aparece en la línea 2'] },
  { line: 9, code: 'IMP-007', reasons: ['La fila tiene 4 columnas y el encabezado 14'] },
  { line: 10, code: 'IMP-008', reasons: ['CSV mal formado: Comillas mal colocadas en la columna 2'] },
  { line: 11, code: 'IMP-009', reasons: ['Producto nuevo sin name (obligatorios para crearlo)'] },
];

describe('catalogue import of a CSV with errors', () => {
  it('dry run: reports what would change and every rejected row by line, writing nothing', async () => {
    const report = await run(fixture, true);
    expect(report).toMatchObject({ dryRun: true, rows: 10, created: 3, updated: 0, unchanged: 0 });
    expect(report.rejected).toEqual(EXPECTED_REJECTIONS);
    expect(report.brandsCreated).toEqual(['Marca Nueva Importada']);
    expect(report.message).toBe(
      'Simulación: se crearían 3, se actualizarían 0 y 0 quedarían sin cambios; 7 filas rechazadas.',
    );
    expect(await product('IMP-001')).toBeUndefined();
    const [brand] = (
      await t.db.execute<{ n: number }>(
        sql`select count(*)::int as n from brands where name = 'Marca Nueva Importada'`,
      )
    ).rows;
    expect(brand!.n).toBe(0);
  });

  it('imports the good rows (decimal commas, sanitized HTML, new brand, ledger rows) and reports the batches', async () => {
    const report = await run(fixture, false);
    expect(report).toMatchObject({ created: 3, updated: 0, unchanged: 0 });
    expect(report.rejected).toEqual(EXPECTED_REJECTIONS);
    expect(report.batches.map((b) => [b.firstLine, b.lastLine, b.landed])).toEqual([
      [2, 3, true],
      [8, 8, true],
    ]);
    const matraz = await product('IMP-001');
    expect(matraz).toMatchObject({
      name: 'Matraz aforado 250 ml, clase A',
      price_cents: 123450,
      stock: 12,
      active: true,
    });
    expect(Number(matraz!.weight_kg)).toBe(0.35);
    expect(matraz!.long_desc_html).toBe('<p>Con <strong>certificado</strong></p>');
    expect(await product('IMP-006')).toMatchObject({
      name: 'Centrífuga "mini" 6 plazas',
      price_cents: 349900,
      active: false,
      sat_unit_key: 'H87',
    });
    expect(await product('IMP-003')).toBeUndefined();
    expect(await product('IMP-004')).toBeUndefined();
    expect(await stockOf(t, 'IMP-001')).toEqual({ stock: 12, ledger: 12 });
    const [ledger] = (
      await t.db.execute<{ reason: string }>(
        sql`select reason from stock_movements where product_code = 'IMP-002'`,
      )
    ).rows;
    expect(ledger!.reason).toBe('import');
    const audit = (
      await t.db.execute<{ action: string; actor_label: string }>(
        sql`select action, actor_label from audit_log where entity_type = 'catalogue' order by id`,
      )
    ).rows;
    expect(audit).toEqual([
      { action: 'catalogue.import', actor_label: 'línea de comandos' },
      { action: 'catalogue.import', actor_label: 'línea de comandos' },
    ]);
    // The shop shows what was imported (and hides the inactive product).
    expect((await t.app.inject({ url: '/api/products/IMP-001' })).json().priceCents).toBe(123450);
  });

  it('is idempotent: the same file again changes nothing; a changed stock is one ledger row', async () => {
    const again = await run(fixture, false);
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
    const csv = Buffer.from('codigo;existencia;precio\nIMP-001;20;1.300,00\n');
    const dry = await run(csv, true);
    expect(dry.changes).toEqual([{ line: 2, code: 'IMP-001', kind: 'updated', fields: ['price', 'stock'] }]);
    const report = await run(csv, false);
    expect(report).toMatchObject({ updated: 1, rejected: [] });
    expect(await product('IMP-001')).toMatchObject({
      name: 'Matraz aforado 250 ml, clase A',
      price_cents: 130000,
      stock: 20,
    });
    expect(await stockOf(t, 'IMP-001')).toEqual({ stock: 20, ledger: 20 });
  });

  it('strict mode imports nothing when a row is rejected', async () => {
    const csv = Buffer.from('code,name,group,price,stock\nSTR-1,Uno,VID-MAT,10,1\nSTR-2,Dos,VID-MAT,10,-1\n');
    const report = await run(csv, false, { strict: true });
    expect(report.rejected).toHaveLength(1);
    expect(report.batches).toEqual([]);
    expect(await product('STR-1')).toBeUndefined();
  });

  it('reads CAS numbers and formulas, refusing a CAS whose check digit is wrong', async () => {
    const csv = Buffer.from(
      'code,name,group,price,cas,formula\nCAS-1,Ácido sulfúrico,VID-MAT,10,7664-93-9,H2SO4\nCAS-2,Acetona,VID-MAT,10,67-64-2,C3H6O\n',
    );
    const report = await run(csv, false);
    expect(report.rejected).toEqual([
      expect.objectContaining({
        line: 3,
        reasons: [expect.stringContaining('Número CAS inválido «67-64-2»')],
      }),
    ]);
    const rows = await t.db.execute<{ cas_number: string; formula: string }>(
      sql`select cas_number, formula from products where code = 'CAS-1'`,
    );
    expect(rows.rows).toEqual([{ cas_number: '7664-93-9', formula: 'H2SO4' }]);
    expect(await product('CAS-2')).toBeUndefined();
  });
});

describe('files refused as a whole', () => {
  it('a Latin-1 file names the line and the encoding', async () => {
    const latin1 = Buffer.from(
      'code,name,group,price\nL-1,Matraz aforado,VID-MAT,10\nL-2,Balanza analítica,EQU-BAL,20\n',
      'latin1',
    );
    await expect(run(latin1, false)).rejects.toThrow(ImportFileError);
    await expect(run(latin1, false)).rejects.toThrow(/no está en UTF-8: la línea 3 .*Latin-1/);
    expect(await product('L-1')).toBeUndefined();
  });

  it('UTF-16, an unclosed quote, an unknown column and an empty file', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('code,name\n', 'utf16le')]);
    await expect(run(utf16, false)).rejects.toThrow('El archivo está en UTF-16');
    await expect(
      run(Buffer.from('code,name,group,price\nQ-1,"Sin cerrar,VID-MAT,10\nQ-2,Otro,VID-MAT,10\n'), false),
    ).rejects.toThrow(
      'CSV mal formado: las comillas que se abren en la línea 2 no se cierran antes del final del archivo',
    );
    await expect(run(Buffer.from('code,nombre,precio_lista\nX,Y,1\n'), false)).rejects.toThrow(
      'Columna desconocida «precio_lista»',
    );
    await expect(run(Buffer.from(''), false)).rejects.toThrow('El archivo está vacío');
    expect(await product('Q-1')).toBeUndefined();
  });

  it('through the API: 400 with the reason for staff, 403 for a shopper', async () => {
    const shopper = await createShopper(t);
    const payload = {
      filename: 'x.csv',
      contentBase64: Buffer.from('código,nombre\n', 'latin1').toString('base64'),
      dryRun: false,
    };
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/import',
      headers: { cookie: staff.cookie },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/^El archivo no está en UTF-8: la línea 1/);
    const forbidden = await t.app.inject({
      method: 'POST',
      url: '/api/admin/import',
      headers: { cookie: shopper.cookie },
      payload,
    });
    expect(forbidden.statusCode).toBe(403);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/admin/import',
      headers: { cookie: staff.cookie },
      payload: { filename: 'web.csv', contentBase64: fixture.toString('base64'), dryRun: true },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ dryRun: true, unchanged: 2, updated: 1 });
  });
});

describe('pictures and datasheets from folders', () => {
  it('attaches files named by code, and rejects an oversized picture and a fake PDF', async () => {
    const images = join(dir, 'img');
    const sheets = join(dir, 'pdf');
    for (const d of [images, sheets]) rmSync(d, { recursive: true, force: true });
    await import('node:fs').then((fs) => {
      fs.mkdirSync(images);
      fs.mkdirSync(sheets);
    });
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#1d6fb8' } })
      .png()
      .toBuffer();
    writeFileSync(join(images, 'MED-1.png'), png);
    writeFileSync(join(images, 'med-2.JPG'), Buffer.alloc(6 * 1024 * 1024, 0xff));
    writeFileSync(join(images, 'MED-3.webp'), Buffer.from('esto no es una imagen'));
    const sheet = await PDFDocument.create();
    sheet.addPage([612, 792]);
    writeFileSync(join(sheets, 'MED-1.pdf'), await sheet.save());
    writeFileSync(join(sheets, 'MED-4.pdf'), Buffer.from('<html>no soy un pdf</html>'));
    const csv = Buffer.from(
      'code,name,group,price\nMED-1,Uno,VID-MAT,10\nMED-2,Dos,VID-MAT,10\nMED-3,Tres,VID-MAT,10\nMED-4,Cuatro,VID-MAT,10\n',
    );
    const report = await run(csv, false, { media: { images, datasheets: sheets } });
    expect(report.rejected).toEqual([
      { line: 3, code: 'MED-2', reasons: ['Imagen med-2.JPG: pesa 6.00 MB; el límite es 5 MB'] },
      { line: 4, code: 'MED-3', reasons: ['Imagen MED-3.webp: La imagen debe ser JPEG, PNG o WebP'] },
      { line: 5, code: 'MED-4', reasons: ['Ficha técnica MED-4.pdf: La ficha técnica no es un PDF'] },
    ]);
    const med1 = await product('MED-1');
    expect(med1!.image_hash).toMatch(/^[0-9a-f]{16}$/);
    expect(med1!.datasheet_hash).toMatch(/^[0-9a-f]{16}$/);
    const image = await t.app.inject({ url: '/api/products/MED-1/image?w=160' });
    expect(image.statusCode).toBe(200);
    expect(await product('MED-2')).toBeUndefined();
    // Same files again: unchanged (the stored hash matches).
    const again = await run(Buffer.from('code,name,group,price\nMED-1,Uno,VID-MAT,10\n'), false, {
      media: { images, datasheets: sheets },
    });
    expect(again).toMatchObject({ unchanged: 1, updated: 0 });
  });
});
