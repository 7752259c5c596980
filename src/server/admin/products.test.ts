import { sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditRows,
  type CheckoutTestApp,
  createCheckoutApp,
  createStaff,
  type Shopper,
  stockOf,
} from '../../../tests/server/support/staff.ts';

let t: CheckoutTestApp;
let staff: Shopper;
beforeAll(async () => {
  t = await createCheckoutApp();
  staff = await createStaff(t);
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: { cookie: staff.cookie }, ...(payload ? { payload } : {}) });

const NEW = {
  code: 'ADM-100',
  name: 'Agitador magnético con calefacción',
  brand: 'Marca del Personal',
  groupClas: 'EQU-PAR',
  line: 'Agitadores',
  type: 'Equipo',
  price: '12.345,60',
  weightKg: '2,5',
  shortDesc: 'Hasta 1500 rpm',
  longDescHtml: '<p onclick="x()">Placa <b>cerámica</b></p><img src=x onerror=alert(1)><script>1</script>',
  satProductKey: '41104500',
  satUnitKey: 'h87',
  active: true,
  stock: 4,
};

describe('products', () => {
  it('creates a product: price with a decimal comma, HTML sanitized, new brand, initial stock in the ledger, audited', async () => {
    const res = await call('POST', '/api/admin/products', NEW);
    expect(res.statusCode).toBe(201);
    expect(res.json().product).toMatchObject({
      code: 'ADM-100',
      priceCents: 1234560,
      weightKg: 2.5,
      stock: 4,
      satUnitKey: 'H87',
      longDescHtml: '<p>Placa <b>cerámica</b></p>',
    });
    expect(await stockOf(t, 'ADM-100')).toEqual({ stock: 4, ledger: 4 });
    expect((await t.app.inject({ url: '/api/products/ADM-100' })).json().priceCents).toBe(1234560);
    const audit = await auditRows(t, 'product', 'ADM-100');
    expect(audit.map((a) => a.action)).toEqual(['product.create']);
    const dup = await call('POST', '/api/admin/products', NEW);
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.message).toBe('Ya existe un producto con el código ADM-100');
  });

  it('rejects a bad price, an unknown group and a bad SAT key with Spanish field messages', async () => {
    const res = await call('POST', '/api/admin/products', {
      ...NEW,
      code: 'ADM-101',
      price: '12,34,5',
      satProductKey: '123',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toMatchObject({
      price: 'Escriba un precio válido, p. ej. 1234.50 o 1234,50',
      satProductKey: 'La clave de producto SAT tiene 8 dígitos',
    });
    const group = await call('POST', '/api/admin/products', { ...NEW, code: 'ADM-101', groupClas: 'NADA' });
    expect(group.statusCode).toBe(400);
    expect(group.json().error.fields.groupClas).toBe('El grupo NADA no existe');
    expect((await call('GET', '/api/admin/products/ADM-101')).statusCode).toBe(404);
  });

  it('edits, deactivates (the shop stops showing it) and audits only what changed', async () => {
    const { code: _c, stock: _s, ...fields } = NEW;
    const res = await call('PUT', '/api/admin/products/ADM-100', { ...fields, price: '999.90' });
    expect(res.statusCode).toBe(200);
    expect(res.json().product.priceCents).toBe(99990);
    const off = await call('POST', '/api/admin/products/ADM-100/active', { active: false });
    expect(off.json().product.active).toBe(false);
    expect((await t.app.inject({ url: '/api/products/ADM-100' })).statusCode).toBe(404);
    const list = (await call('GET', '/api/admin/products?q=ADM-100&status=inactive')).json();
    expect(list.items.map((p: { code: string }) => p.code)).toEqual(['ADM-100']);
    const audit = await auditRows(t, 'product', 'ADM-100');
    expect(audit.map((a) => a.action)).toEqual(['product.create', 'product.update', 'product.deactivate']);
    expect(audit[1]).toMatchObject({ before: { priceCents: 1234560 }, after: { priceCents: 99990 } });
    await call('POST', '/api/admin/products/ADM-100/active', { active: true });
  });

  it('adjusts stock with a reason, never below zero, and lists the movements', async () => {
    const add = await call('POST', '/api/admin/products/ADM-100/stock', {
      delta: 6,
      reason: 'Recepción de proveedor',
    });
    expect(add.statusCode).toBe(200);
    expect(add.json().message).toBe('Existencia actualizada: 10 unidades');
    const tooMany = await call('POST', '/api/admin/products/ADM-100/stock', { delta: -11, reason: 'Merma' });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().error.message).toBe(
      'La existencia no puede quedar negativa: hay 10 y se intentó restar 11',
    );
    expect(
      (await call('POST', '/api/admin/products/ADM-100/stock', { delta: 0, reason: 'Nada' })).statusCode,
    ).toBe(400);
    expect(
      (await call('POST', '/api/admin/products/ADM-100/stock', { delta: -1, reason: '' })).statusCode,
    ).toBe(400);
    expect(await stockOf(t, 'ADM-100')).toEqual({ stock: 10, ledger: 10 });
    const movements = (await call('GET', '/api/admin/products/ADM-100/movements')).json();
    expect(movements.stock).toBe(10);
    expect(movements.movements[0]).toMatchObject({
      delta: 6,
      reason: 'adjustment',
      reasonLabel: 'Ajuste manual',
      note: 'Recepción de proveedor',
      actor: staff.email,
    });
    const audit = await auditRows(t, 'product', 'ADM-100');
    expect(audit.at(-1)).toMatchObject({
      action: 'stock.adjust',
      before: { stock: 4 },
      after: { stock: 10, delta: 6 },
    });
  });

  it('uploads a picture and a PDF judged by their bytes; refuses fakes and oversized files', async () => {
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#0b4a6f' } })
      .png()
      .toBuffer();
    const ok = await call('PUT', '/api/admin/products/ADM-100/image', {
      contentBase64: png.toString('base64'),
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().product.imageUrl).toMatch(/^\/api\/products\/ADM-100\/image\?v=[0-9a-f]{16}$/);
    expect((await t.app.inject({ url: ok.json().product.imageUrl })).statusCode).toBe(200);

    const gif = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');
    const fake = await call('PUT', '/api/admin/products/ADM-100/image', {
      contentBase64: gif.toString('base64'),
    });
    expect(fake.statusCode).toBe(400);
    expect(fake.json().error.message).toBe('La imagen debe ser JPEG, PNG o WebP');
    const big = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024)]);
    const huge = await call('PUT', '/api/admin/products/ADM-100/image', {
      contentBase64: big.toString('base64'),
    });
    expect(huge.statusCode).toBe(400);
    expect(huge.json().error.message).toBe('La imagen pesa 5.00 MB; el límite es 5 MB');

    const notPdf = await call('PUT', '/api/admin/products/ADM-100/datasheet', {
      contentBase64: Buffer.from('<html></html>').toString('base64'),
    });
    expect(notPdf.statusCode).toBe(400);
    expect(notPdf.json().error.message).toBe('La ficha técnica no es un PDF');
    const sheet = await PDFDocument.create();
    sheet.addPage([612, 792]);
    const pdf = await call('PUT', '/api/admin/products/ADM-100/datasheet', {
      contentBase64: Buffer.from(await sheet.save()).toString('base64'),
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.json().product.datasheetUrl).toMatch(/datasheet\.pdf\?v=/);
    const [row] = (
      await t.db.execute<{ n: number }>(
        sql`select count(*)::int as n from audit_log where entity_id = 'ADM-100' and action in ('product.image', 'product.datasheet')`,
      )
    ).rows;
    expect(row!.n).toBe(2);
  });

  it('lists and searches by name, brand or code', async () => {
    const byName = (await call('GET', '/api/admin/products?q=agitador')).json();
    expect(byName.items.map((p: { code: string }) => p.code)).toContain('ADM-100');
    const byBrand = (
      await call('GET', `/api/admin/products?q=${encodeURIComponent('Marca del Personal')}`)
    ).json();
    expect(byBrand.total).toBe(1);
    const options = (await call('GET', '/api/admin/catalog-options')).json();
    expect(options.brands).toContain('Marca del Personal');
    expect(options.groups.some((g: { clas: string }) => g.clas === 'EQU-PAR')).toBe(true);
  });
});
