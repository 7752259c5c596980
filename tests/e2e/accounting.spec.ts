import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { previousMexicoMonth } from '../../src/shared/mexico-time.ts';
import { unzip } from '../server/support/unzip.ts';
import { sandboxCardToken } from './card-helper.ts';
import { ownPostgresShop } from './own-server.ts';
import { registerThroughApi } from './register-helper.ts';
import { signInStaff } from './staff-session.ts';

/**
 * The back office's 'Por agotarse' and «Contabilidad» (issue 36, decision 066) in the browser: a buyer's card
 * orders make sales, the almacén sees what runs out first and sets a reorder point; the buyer's invoices, a credit
 * note and the factura global of last month appear in «Contabilidad», which reconciles them to the orders' ledgers
 * and downloads the month's ZIP. The journey's own server runs on its own PostgreSQL database (the dates of the
 * documents are moved to last month there, as a month-end close would find them). SHOTS_DIR=… saves the screens at
 * 1280 px.
 */
const STAFF = {
  email: 'contabilidad@ciencia-occidente.mx',
  password: 'Contable#Cierre2026',
  nombre: 'Contabilidad',
};
const shop = ownPostgresShop('accounting', STAFF);
const { base } = shop;

test.use({ baseURL: base });
test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  await shop.start();
});
test.afterAll(() => shop.stop());

async function shot(page: Page, name: string) {
  if (process.env.SHOTS_DIR)
    await page.screenshot({ path: `${process.env.SHOTS_DIR}/${name}-1280.png`, fullPage: true });
}

const FORM = {
  nombreFiscal: 'Laboratorios Químicos del Bajío',
  rfc: 'LQB150101AB3',
  regimenFiscal: '601',
  usoCfdi: 'G03',
  cp: '44100',
};
const orders: number[] = [];
let codes: string[] = [];

test('a buyer’s card orders make the sales the list projects from', async ({ page }) => {
  const { items } = (await (await page.request.get('/api/products?pageSize=24')).json()) as {
    items: { code: string; stock: number }[];
  };
  codes = items.filter((p) => p.stock >= 12).map((p) => p.code);
  expect(codes.length).toBeGreaterThanOrEqual(4);
  const email = `compras.${Date.now()}@lqb.example.mx`;
  const reg = await registerThroughApi(page.request, {
    username: email,
    nombre: 'Rebeca',
    apellidoPat: 'Ortiz',
    apellidoMat: 'Vega',
    telefono: '3312349999',
    password: 'Matraz.Aforado2026!',
  });
  expect(reg.status()).toBeLessThan(300);
  expect(
    (
      await page.request.put('/api/account/shipping-address', {
        data: {
          nombreEnvio: 'Rebeca Ortiz Vega',
          telefonoEnvio: '3312349999',
          cpEnvio: '44100',
          calleEnvio: 'Av. Juárez',
          numExtEnvio: '120',
          numIntEnvio: '',
          coloniaEnvio: 'Centro',
          municipioEnvio: 'Guadalajara',
          ciudadEnvio: 'Guadalajara',
          estadoEnvio: 'Jalisco',
        },
      })
    ).status(),
  ).toBe(200);
  for (const [i, quantity] of [9, 6, 4, 2].entries()) {
    const placed = await page.request.post('/api/orders', {
      headers: { 'Idempotency-Key': randomUUID() },
      data: {
        items: [{ code: codes[i]!, quantity }],
        cardToken: await sandboxCardToken(page.request, 'Rebeca Ortiz'),
        deviceSessionId: 'accounting-journey',
      },
    });
    expect(placed.status(), await placed.text()).toBe(201);
    orders.push(((await placed.json()) as { number: number }).number);
  }
  // The buyer asks for the invoice of three of them; the fourth goes in the factura global.
  for (const number of orders.slice(0, 3)) {
    const res = await page.request.post(`/api/orders/${number}/invoice`, { data: FORM });
    expect(res.status(), await res.text()).toBe(201);
  }
});

test('Por agotarse: what runs out first on top; the almacén sets a reorder point', async ({ browser }) => {
  // Stock as a week of sales left it: one out, others low.
  await shop.sql(`update products set stock = 40 where active`);
  await shop.sql(`update products set stock = 0 where code = $1`, [codes[0]]);
  await shop.sql(`update products set stock = 2 where code = $1`, [codes[1]]);
  await shop.sql(`update products set stock = 4, reorder_point = 10 where code = $1`, [codes[2]]);
  await shop.sql(`update products set stock = 3 where code = $1`, [codes[4]]);
  const { context, staff } = await signInStaff(browser, base, STAFF);
  await staff.getByRole('link', { name: 'Por agotarse' }).click();
  await expect(staff.getByRole('heading', { name: 'Por agotarse' })).toBeVisible();
  const rows = staff.getByTestId('low-stock-row');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(0)).toContainText('Agotado');
  await expect(rows.nth(0)).toContainText(codes[0]!);
  await expect(rows.nth(1)).toContainText(codes[1]!);
  await expect(rows.nth(1)).toContainText('30 días'); // 2 ÷ (6 ÷ 90)
  await expect(rows.nth(3)).toContainText('Sin ventas en 90 días');
  const field = staff.getByLabel(`Punto de reorden de ${codes[1]}`);
  await field.fill('12');
  await rows.nth(1).getByRole('button', { name: 'Guardar' }).click();
  await expect(staff.getByText(`Punto de reorden de ${codes[1]}: 12 pzas.`)).toBeVisible();
  await expect(rows.nth(1)).toContainText('Propio');
  await shot(staff, 'por-agotarse');
  await context.close();
});

test('Contabilidad: last month’s CFDIs, the global, the reconciliation and the ZIP', async ({ browser }) => {
  const { context, staff } = await signInStaff(browser, base, STAFF);
  const note = await staff.request.post(`/api/admin/invoices/${orders[0]}/credit-notes`, {
    data: { amount: '150.00', description: 'Descuento por volumen' },
  });
  expect(note.status(), await note.text()).toBe(201);
  // Last month's close: the documents and the uninvoiced sale moved to last month, then its global.
  const { year, month } = previousMexicoMonth(new Date());
  const mm = `${year}-${String(month).padStart(2, '0')}`;
  await shop.sql(
    `update invoices set issued_at = ($1::date + (id % 20) * interval '1 day' + interval '17 hours')
      where order_number = any($2)`,
    [`${mm}-02`, orders],
  );
  await shop.sql(`update orders set paid_at = $1::date + interval '20 days 18 hours' where number = $2`, [
    `${mm}-01`,
    orders[3],
  ]);
  const global = await staff.request.post('/api/admin/invoices/global', {
    data: { year, month, confirmLate: true },
  });
  expect(global.status(), await global.text()).toBe(201);

  await staff.getByRole('link', { name: 'Contabilidad' }).click();
  await expect(staff.getByRole('heading', { name: 'Contabilidad' })).toBeVisible();
  await expect(staff.getByTestId('cfdi-row')).toHaveCount(5);
  await expect(
    staff.getByText(/Los 3 pedidos con facturas o notas de crédito del periodo cuadran/),
  ).toBeVisible();
  await expect(staff.locator('section', { hasText: 'Factura global' }).getByText('Vigente')).toBeVisible();
  const [download] = await Promise.all([
    staff.waitForEvent('download'),
    staff.getByRole('link', { name: 'Descargar ZIP (XML y PDF)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`cfdi_${mm}.zip`);
  const files = unzip(readFileSync(await download.path()));
  expect([...files.keys()].filter((n) => n.endsWith('.xml'))).toHaveLength(5);
  expect([...files.keys()].filter((n) => n.endsWith('.pdf'))).toHaveLength(4);
  await shot(staff, 'contabilidad');
  await context.close();
});
