import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { sandboxCardToken } from './card-helper.ts';
import { ownShop } from './own-server.ts';
import { registerBuyerWithAddress, registerThroughApi } from './register-helper.ts';
import { signInStaff } from './staff-session.ts';

/**
 * Issue 35 (decision 061) in the browser: a paid 5-line order with one line 'sobre pedido' leaves in two shipments.
 * Staff send what is in stock from the order's screen (a DHL guide in the wrong format is refused under the field),
 * record the goods received for the backordered line, and send the rest; the buyer's receipt in /historial lists
 * both shipments with their tracking links, and each shipment sent its own mail. Then a buyer chooses
 * 'Recoger en sucursal' at checkout (no shipping), staff mark it ready (the code goes by mail and shows on the
 * receipt) and hand it over against the code, the collector's name and ID.
 *
 * Staff accounts are made with `npm run staff:create` before the server opens the embedded database, so this
 * journey starts its own server like admin.spec.ts, on its own port (own-server.ts).
 * Screenshots of the order with two shipments at 1280 and 390 px go to SHOTS_DIR (default test-results/shots-shipments).
 */
const STAFF = { email: 'envios@ciencia-occidente.mx', password: 'Envios#Partes2026', nombre: 'Envíos' };
const shop = ownShop('shipments', STAFF);
const { base } = shop;
const shotsDir = process.env.SHOTS_DIR ?? 'test-results/shots-shipments';

test.use({ baseURL: base });
test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  mkdirSync(shotsDir, { recursive: true });
  await shop.start();
});

test.afterAll(() => shop.stop());

/** At 1280 and 390 px; with `focus`, that part scrolled into view (a dialog scrolls inside itself). */
async function shoot(page: Page, name: string, focus?: Locator) {
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    if (focus) await focus.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shotsDir}/${name}-${width}.png`, fullPage: !focus });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

type Card = { code: string; stock: number; presentationCount: number };
type Detail = {
  code: string;
  stock: number;
  leadTime: unknown;
  presentations: { code: string; stock: number; leadTime: unknown }[];
};

/** Four products in stock and one 'sobre pedido' presentation of the demo catalogue. */
async function fiveProducts(request: APIRequestContext) {
  const { items } = (await (await request.get('/api/products?group=VID-MAT&pageSize=60')).json()) as {
    items: Card[];
  };
  const stocked = items
    .filter((c) => c.stock >= 5)
    .slice(0, 4)
    .map((c) => c.code);
  for (const group of ['VID-VAS', 'VID-PRO', 'VID-MAT', 'REA-SOL']) {
    const list = (await (await request.get(`/api/products?group=${group}&pageSize=60`)).json()) as {
      items: Card[];
    };
    for (const card of list.items.filter((c) => c.presentationCount > 1 && !stocked.includes(c.code))) {
      const detail = (await (await request.get(`/api/products/${card.code}`)).json()) as Detail;
      const later = detail.presentations.find((o) => o.leadTime && !stocked.includes(o.code));
      if (later && stocked.length === 4) return { stocked, later };
    }
  }
  throw new Error('the demo catalogue lacks four products in stock and one sobre pedido');
}

async function buyerWithPaidOrder(request: APIRequestContext) {
  const { stocked, later } = await fiveProducts(request);
  const email = `envios.${Date.now()}@example.mx`;
  const reg = await registerThroughApi(request, {
    username: email,
    nombre: 'Marta',
    apellidoPat: 'Quiroz',
    apellidoMat: 'Ibarra',
    telefono: '3336549870',
    password: 'Pipeta.Aforada2026!',
  });
  expect(reg.status()).toBeLessThan(300);
  const address = await request.put('/api/account/shipping-address', {
    data: {
      nombreEnvio: 'Laboratorio de Bioquímica, CUCEI',
      telefonoEnvio: '3336549870',
      cpEnvio: '44430',
      calleEnvio: 'Blvd. Marcelino García Barragán',
      numExtEnvio: '1421',
      numIntEnvio: 'Edif. X',
      coloniaEnvio: 'Olímpica',
      municipioEnvio: 'Guadalajara',
      ciudadEnvio: 'Guadalajara',
      estadoEnvio: 'Jalisco',
    },
  });
  expect(address.status()).toBe(200);
  const token = await sandboxCardToken(request, 'Marta Quiroz');
  const order = await request.post('/api/orders', {
    headers: { 'Idempotency-Key': randomUUID() },
    data: {
      items: [
        ...stocked.map((code) => ({ code, quantity: 2 })),
        { code: later.code, quantity: later.stock + 3 },
      ],
      cardToken: token,
      deviceSessionId: 'shipments-journey',
    },
  });
  expect(order.status(), await order.text()).toBe(201);
  return { email, number: ((await order.json()) as { number: number }).number, later };
}

test('an order with a sobre pedido line leaves in two shipments: staff send, receive and send again; the buyer sees both', async ({
  page,
  browser,
}) => {
  const { email, number, later } = await buyerWithPaidOrder(page.request);
  const { context, staff } = await signInStaff(browser, base, STAFF);
  await staff.goto(`/admin/pedidos/${number}`);
  const form = staff.getByRole('form', { name: 'Nuevo envío' });
  await expect(form).toBeVisible();

  // A DHL guide must be 10 digits: refused under the field, nothing sent.
  await form.getByLabel('Paquetería').selectOption('dhl');
  await form.getByLabel('Número de guía').fill('DHL-123');
  await form.getByRole('button', { name: 'Registrar envío y avisar al cliente' }).click();
  await expect(form.getByText('La guía de DHL Express tiene 10 dígitos')).toBeVisible();

  await form.getByLabel('Paquetería').selectOption('estafeta');
  await form.getByLabel('Número de guía').fill('8055 2411 03');
  await form.getByRole('button', { name: 'Registrar envío y avisar al cliente' }).click();
  await expect(staff.getByText('Enviado parcialmente').first()).toBeVisible();
  await expect(staff.getByTestId('admin-shipment')).toHaveCount(1);

  // The backordered units arrive: lot and expiry recorded, the order's line filled first.
  const receive = staff.getByRole('form', { name: `Recibir mercancía de ${later.code}` });
  await receive.getByLabel('Lote').fill('L-2611-07');
  await receive.getByLabel('Caducidad').fill('2029-06-30');
  await receive.getByRole('button', { name: 'Registrar recepción' }).click();
  await expect(receive).toHaveCount(0);

  await form.getByLabel('Paquetería').selectOption('fedex');
  await form.getByLabel('Número de guía').fill('123456789012');
  await form.getByRole('button', { name: 'Registrar envío y avisar al cliente' }).click();
  await expect(staff.getByTestId('admin-shipment')).toHaveCount(2);
  await expect(form).toHaveCount(0);
  await expect(staff.getByRole('heading', { name: new RegExp(`Pedido #${number}`) })).toContainText(
    'Enviado',
  );
  await shoot(staff, 'admin-order-two-shipments');
  await staff.setViewportSize({ width: 390, height: 844 });
  await staff
    .locator('section')
    .filter({ has: staff.getByRole('heading', { name: /^Envíos · / }) })
    .screenshot({ path: `${shotsDir}/admin-shipments-panel-390.png` });
  await context.close();

  await page.goto('/historial');
  const card = page.getByTestId('order-card').filter({ hasText: `Pedido #${number}` });
  await expect(card.getByTestId('order-status')).toHaveText('Enviado');
  await expect(card.getByTestId('order-card-shipments').getByRole('link')).toHaveText([
    '8055241103',
    '123456789012',
  ]);
  await card.getByRole('button', { name: 'Ver recibo' }).click();
  const shipments = page.getByTestId('receipt-shipment');
  await expect(shipments).toHaveCount(2);
  await expect(shipments.nth(0)).toContainText('Envío 1 de 2 · Estafeta');
  await expect(shipments.nth(1)).toContainText('Envío 2 de 2 · FedEx');
  await expect(shipments.nth(0).getByRole('link', { name: 'Rastrear en Estafeta' })).toHaveAttribute(
    'href',
    'https://www.estafeta.com/Herramientas/Rastreo?wayBill=8055241103',
  );
  await expect(shipments.nth(1).getByRole('link', { name: 'Rastrear en FedEx' })).toHaveAttribute(
    'href',
    'https://www.fedex.com/fedextrack/?trknbr=123456789012',
  );
  await expect(page.getByTestId('receipt-pending')).toHaveCount(0);
  await shoot(page, 'receipt-two-shipments', page.getByTestId('receipt-shipment').nth(1));

  const { mails } = (await (await page.request.get('/dev/correo.json')).json()) as {
    mails: { kind: string; to: string; subject: string; text: string }[];
  };
  const mine = mails.filter((m) => m.kind === 'order-shipment' && m.to === email).reverse();
  expect(mine.map((m) => m.subject)).toEqual([
    `Envío 1 de su pedido #${number} va en camino`,
    `Envío 2 de su pedido #${number} va en camino`,
  ]);
  expect(mine[1]!.text).toContain('123456789012');
});

test('pickup at a branch: chosen at checkout without shipping, ready with a code by mail, collected with the code and an ID', async ({
  page,
  browser,
}) => {
  const { items } = (await (await page.request.get('/api/products?group=VID-MAT&pageSize=60')).json()) as {
    items: Card[];
  };
  const product = items.find((c) => c.stock >= 3)!;
  await page.goto(`/productos/${product.code}`);
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByTestId('cart-count').first()).toHaveText('1');
  const email = `sucursal.${Date.now()}@example.mx`;
  await registerBuyerWithAddress(
    page.request,
    {
      username: email,
      password: 'Pipeta.Aforada2026!',
      nombre: 'Héctor',
      apellidoPat: 'Salas',
      apellidoMat: 'Núñez',
      telefono: '5512345678',
    },
    {
      nombreEnvio: 'Héctor Salas Núñez',
      telefonoEnvio: '5512345678',
      cpEnvio: '03570',
      calleEnvio: 'Calz. de Tlalpan',
      numExtEnvio: '1600',
      numIntEnvio: '',
      coloniaEnvio: 'Portales Oriente',
      municipioEnvio: 'Benito Juárez',
      ciudadEnvio: 'Ciudad de México',
      estadoEnvio: 'CDMX',
      paisEnvio: 'México',
    },
  );
  await page.goto('/orden');
  await page.getByLabel(/Recoger en sucursal/).check();
  await page.getByLabel('Sucursal de recolección').selectOption({ label: 'Sucursal Ciudad de México' });
  await expect(page.getByTestId('order-shipping')).toHaveText('$0.00');
  await page.getByLabel('Nombre del titular').fill('Héctor Salas Núñez');
  await page.getByLabel('Número de tarjeta').fill('4111111111111111');
  await page.getByLabel('Mes', { exact: true }).fill('12');
  await page.getByLabel('Año').fill(String((new Date().getFullYear() + 2) % 100));
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Pagar' }).click();
  await expect(page).toHaveURL(/\/resumen\/\d+$/);
  const number = Number(page.url().split('/').at(-1));
  await expect(page.getByTestId('summary-pickup')).toContainText('Sucursal Ciudad de México');

  const { context, staff } = await signInStaff(browser, base, STAFF);
  await staff.goto(`/admin/pedidos/${number}`);
  await expect(
    staff.getByRole('heading', { name: /^Envíos · Recoger en sucursal · Sucursal Ciudad de México/ }),
  ).toBeVisible();
  await staff
    .getByRole('button', { name: 'Marcar «Listo para recoger» y enviar el código al cliente' })
    .click();
  await expect(staff.getByText('Listo para recoger').first()).toBeVisible();

  let code = '';
  await expect
    .poll(async () => {
      const { mails } = (await (await page.request.get('/dev/correo.json')).json()) as {
        mails: { kind: string; to: string; subject: string; text: string }[];
      };
      const ready = mails.find((m) => m.kind === 'pickup-ready' && m.to === email);
      code = ready?.text.match(/^\s*([0-9A-Z]{6})\s*$/m)?.[1] ?? '';
      return ready?.subject;
    })
    .toBe(`Su pedido #${number} está listo para recoger`);
  await page.goto('/historial');
  await page
    .getByTestId('order-card')
    .filter({ hasText: `Pedido #${number}` })
    .getByRole('button', { name: 'Ver recibo' })
    .click();
  await expect(page.getByTestId('pickup-code')).toHaveText(code);
  await expect(page.getByTestId('receipt-shipping')).toHaveText('$0.00');

  const collect = staff.getByRole('form', { name: 'Entregar en sucursal' });
  await collect.getByLabel('Código de recolección').fill('ZZZZZ9');
  await collect.getByLabel('Nombre de quien recoge').fill('Héctor Salas Núñez');
  await collect.getByLabel('Identificación (tipo y número)').fill('INE 0123456789');
  await collect.getByRole('button', { name: 'Marcar «Recogido»' }).click();
  await expect(collect.getByText('El código no corresponde a este pedido')).toBeVisible();
  await collect.getByLabel('Código de recolección').fill(code);
  await collect.getByRole('button', { name: 'Marcar «Recogido»' }).click();
  await expect(staff.getByText('Recogido por Héctor Salas Núñez (INE 0123456789)')).toBeVisible();
  await context.close();
});
