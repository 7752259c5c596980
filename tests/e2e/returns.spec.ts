import { randomUUID } from 'node:crypto';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { formatMoney } from '../../src/shared/money.ts';
import { sandboxCardToken } from './card-helper.ts';
import { ownShop } from './own-server.ts';
import { registerThroughApi } from './register-helper.ts';
import { signInStaff } from './staff-session.ts';

/**
 * Returns (issue 35, decision 062) in the browser: a buyer with a delivered order asks from /historial to return a
 * product (quantity, reason, description, a photo); staff authorize it from «Devoluciones», record its arrival
 * and, in one action, put it back for sale and refund it to the card; the buyer reads «Reembolsada» and where the
 * money went, and the product's stock is back.
 *
 * Staff accounts are made with `npm run staff:create` before the server opens its database, so this journey starts
 * its own server like admin.spec.ts, on its own port (own-server.ts). SHOTS_DIR=… saves screenshots of the
 * return request at 1280 and 390 px.
 */
const STAFF = {
  email: 'almacen@ciencia-occidente.mx',
  password: 'Almacen#Devoluciones2025',
  nombre: 'Almacén',
};
const shop = ownShop('returns', STAFF);
const { base } = shop;

test.use({ baseURL: base });
test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  await shop.start();
});

test.afterAll(() => shop.stop());

async function shots(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  const size = page.viewportSize() ?? { width: 1280, height: 900 };
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `${dir}/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${dir}/${name}-390.png`, fullPage: true });
  await page.setViewportSize(size);
}

/** A buyer's card order of 2 units of a product that is not a reagent, placed through the API. */
async function buyerWithCardOrder(request: APIRequestContext) {
  const { items } = (await (await request.get('/api/products?pageSize=60')).json()) as {
    items: { code: string; stock: number }[];
  };
  // Equipment or material, not a reagent: it may go back to sale.
  let product: { code: string } | undefined;
  for (const item of items.filter((p) => p.stock >= 5)) {
    const detail = (await (await request.get(`/api/products/${encodeURIComponent(item.code)}`)).json()) as {
      casNumber: string | null;
      controlled: boolean;
    };
    if (!detail.casNumber && !detail.controlled) {
      product = item;
      break;
    }
  }
  if (!product) throw new Error('the demo catalogue has no equipment in stock');
  const reg = await registerThroughApi(request, {
    username: `devolucion.${Date.now()}@example.mx`,
    nombre: 'Sofía',
    apellidoPat: 'Ramírez',
    apellidoMat: 'Luna',
    telefono: '3319876543',
    password: 'Pipeta.Volumetrica2024!',
  });
  expect(reg.status()).toBeLessThan(300);
  const address = await request.put('/api/account/shipping-address', {
    data: {
      nombreEnvio: 'Sofía Ramírez Luna',
      telefonoEnvio: '3319876543',
      cpEnvio: '44600',
      calleEnvio: 'Av. Vallarta',
      numExtEnvio: '1525',
      numIntEnvio: '',
      coloniaEnvio: 'Americana',
      municipioEnvio: 'Guadalajara',
      ciudadEnvio: 'Guadalajara',
      estadoEnvio: 'Jalisco',
    },
  });
  expect(address.status()).toBe(200);
  const token = await sandboxCardToken(request, 'Sofía Ramírez');
  const order = await request.post('/api/orders', {
    headers: { 'Idempotency-Key': randomUUID() },
    data: {
      items: [{ code: product.code, quantity: 2 }],
      cardToken: token,
      deviceSessionId: 'returns-journey',
    },
  });
  expect(order.status(), await order.text()).toBe(201);
  const number = ((await order.json()) as { number: number }).number;
  const detail = (await (await request.get(`/api/orders/${number}`)).json()) as {
    lines: { unitPriceCents: number }[];
  };
  return { number, product, unitCents: detail.lines[0]!.unitPriceCents };
}

const stockOf = async (request: APIRequestContext, code: string) =>
  ((await (await request.get(`/api/products/${encodeURIComponent(code)}/stock`)).json()) as { stock: number })
    .stock;

test('a buyer returns a product from /historial; staff authorize, receive, restock and refund it to the card', async ({
  page,
  browser,
}) => {
  const { number, product, unitCents } = await buyerWithCardOrder(page.request);
  const { context, staff } = await signInStaff(browser, base, STAFF);
  for (const [step, data] of [
    ['prepare', {}],
    ['ship', { trackingGuide: 'EST-5512345', deliveryProvider: 'Estafeta', deliveryDate: '2099-01-15' }],
    ['deliver', {}],
  ] as const) {
    const res = await staff.request.post(`/api/admin/orders/${number}/${step}`, { data });
    expect(res.status(), await res.text()).toBe(200);
  }
  const stockBefore = await stockOf(page.request, product.code);

  // The buyer asks from the order's card in /historial.
  await page.goto('/historial');
  const card = page.getByTestId('order-card').filter({ hasText: `Pedido #${number}` });
  await card.getByRole('link', { name: 'Solicitar devolución' }).click();
  await expect(page.getByRole('heading', { name: `Devoluciones del pedido #${number}` })).toBeVisible();
  await expect(page.getByTestId('return-window')).toContainText('10 días después de la entrega');
  const form = page.getByTestId('return-form');
  await form.getByRole('button', { name: 'Enviar solicitud' }).click();
  await expect(form.getByText('Elija el motivo')).toBeVisible();
  await form.getByLabel('Llegó defectuoso o dañado').check();
  await form.getByLabel(/Piezas de .* a devolver/).fill('1');
  await form.getByLabel('Describa qué pasó').fill('La pantalla llegó estrellada; la caja venía golpeada.');
  const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#8a9bb0' } })
    .jpeg()
    .toBuffer();
  await form
    .getByTestId('return-photos')
    .setInputFiles({ name: 'pantalla.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(form.getByRole('img', { name: 'Foto 1' })).toBeVisible();
  await expect(form).toContainText(`Importe de lo que devuelve: ${formatMoney(unitCents)}`);
  await shots(page, 'devolucion-solicitud');
  await form.getByRole('button', { name: 'Enviar solicitud' }).click();
  const rma = page.getByTestId('return-card');
  await expect(rma.getByTestId('return-state')).toHaveText('Solicitada');
  await shots(page, 'devolucion-solicitada');

  // Staff: «Devoluciones» → the return → authorize, receive, refund and restock.
  await staff.getByRole('link', { name: 'Devoluciones' }).click();
  await staff
    .getByTestId('return-row')
    .filter({ hasText: `#${number}` })
    .getByRole('link')
    .first()
    .click();
  await expect(staff.getByRole('img', { name: 'Foto 1 del cliente' })).toBeVisible();
  await shots(staff, 'devolucion-personal');
  await staff.getByRole('button', { name: 'Autorizar devolución' }).click();
  await staff.getByRole('button', { name: 'Marcar mercancía recibida' }).click();
  await staff
    .getByRole('button', { name: `Reembolsar ${formatMoney(unitCents)} y regresar al almacén` })
    .click();
  await expect(staff.getByText(`a la tarjeta del cliente`).first()).toBeVisible();
  await expect(staff.getByText('Reembolsada').first()).toBeVisible();
  await context.close();

  // The buyer reads it, on the page and in /historial; the unit is back in stock.
  await page.reload();
  await expect(rma.getByTestId('return-state')).toHaveText('Reembolsada');
  await expect(rma.getByTestId('return-refund')).toHaveText(
    `Reembolsamos ${formatMoney(unitCents)} a la tarjeta con la que pagó.`,
  );
  await page.goto('/historial');
  await expect(card.getByTestId('order-returns')).toContainText('Reembolsada');
  expect(await stockOf(page.request, product.code)).toBe(stockBefore + 1);
});

test('«Avísame cuando haya» on a product without stock: one e-mail, no sign-in needed', async ({
  page,
  browser,
}) => {
  const { items } = (await (await page.request.get('/api/products?pageSize=60')).json()) as {
    items: { code: string; stock: number }[];
  };
  const product = items.filter((p) => p.stock > 0).at(-1)!;
  const { context, staff } = await signInStaff(browser, base, STAFF);
  const emptied = await staff.request.post(`/api/admin/products/${encodeURIComponent(product.code)}/stock`, {
    data: { delta: -product.stock, reason: 'Conteo físico: agotado' },
  });
  expect(emptied.status(), await emptied.text()).toBe(200);
  await context.close();

  await page.goto(`/productos/${encodeURIComponent(product.code)}`);
  const form = page.getByTestId('stock-alert');
  await form.getByRole('button', { name: 'Avísame cuando haya' }).click();
  await expect(form.getByRole('alert')).toHaveText('Escriba su correo electrónico');
  await form.getByLabel('Correo electrónico para el aviso').fill(`aviso.${Date.now()}@example.mx`);
  await shots(page, 'avisame-cuando-haya');
  await form.getByRole('button', { name: 'Avísame cuando haya' }).click();
  await expect(page.getByTestId('stock-alert-done')).toHaveText(
    'Listo: le escribiremos una sola vez cuando vuelva a haber existencia.',
  );
});
