import { randomUUID } from 'node:crypto';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { sandboxCardToken } from './card-helper.ts';
import { ownShop } from './own-server.ts';
import { registerThroughApi } from './register-helper.ts';
import { signInStaff } from './staff-session.ts';

/**
 * Back office: staff ship an order with a tracking guide → the shopper sees the guide in /historial and
 * 'Cancelar pedido' is gone. The first staff account is made with `npm run staff:create`, which needs
 * the database before the server opens it (the embedded database allows one process), so this journey
 * starts its own server on a fresh database (own-server.ts) — a copy of the run's template (migrated, with the
 * demo catalogue: scripts/e2e-template.ts) when playwright.config.ts made one.
 */
const STAFF = { email: 'almacen@ciencia-occidente.mx', password: 'Almacen#Envios2025', nombre: 'Almacén' };
const shop = ownShop('admin', STAFF);
const { base } = shop;

test.use({ baseURL: base });
test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  await shop.start();
});

test.afterAll(() => shop.stop());

/** A shopper with a paid order, set up through the shop's API (register, address, card token, order). */
async function shopperWithPaidOrder(request: APIRequestContext) {
  const products = (await (await request.get('/api/products?pageSize=60')).json()) as {
    items: { code: string; stock: number }[];
  };
  const product = products.items.find((p) => p.stock >= 3);
  if (!product) throw new Error('no product in stock');
  const email = `envio.${Date.now()}@example.mx`;
  const reg = await registerThroughApi(request, {
    username: email,
    nombre: 'Rosa',
    apellidoPat: 'Hernández',
    apellidoMat: 'Vega',
    telefono: '3331234567',
    password: 'Bureta.Graduada2024!',
  });
  expect(reg.status()).toBeLessThan(300);
  const address = await request.put('/api/account/shipping-address', {
    data: {
      nombreEnvio: 'Rosa Hernández Vega',
      telefonoEnvio: '3331234567',
      cpEnvio: '45040',
      calleEnvio: 'Av. Guadalupe',
      numExtEnvio: '6400',
      numIntEnvio: '',
      coloniaEnvio: 'Chapalita Inn',
      municipioEnvio: 'Zapopan',
      ciudadEnvio: 'Zapopan',
      estadoEnvio: 'Jalisco',
    },
  });
  expect(address.status()).toBe(200);
  const token = await sandboxCardToken(request, 'Rosa Hernández');
  const order = await request.post('/api/orders', {
    headers: { 'Idempotency-Key': randomUUID() },
    data: {
      items: [{ code: product.code, quantity: 1 }],
      cardToken: token,
      deviceSessionId: 'admin-journey',
    },
  });
  expect(order.status()).toBe(201);
  return { email, number: ((await order.json()) as { number: number }).number };
}

test('staff ship an order with a guide; the shopper sees it in /historial and can no longer cancel', async ({
  page,
  browser,
}) => {
  const { number } = await shopperWithPaidOrder(page.request);

  // Before shipping, the shopper may still cancel.
  await page.goto('/historial');
  const card = page.getByRole('listitem').filter({ hasText: `Pedido #${number}` });
  await expect(card.getByTestId('order-status')).toHaveText('Pagado');
  await expect(card.getByRole('button', { name: 'Cancelar pedido' })).toBeVisible();

  // A shopper's session does not open the back office.
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'No tiene permiso para esta acción' })).toBeVisible();

  const { context: staffContext, staff } = await signInStaff(browser, base, STAFF);

  await staff.getByLabel('Buscar').fill(String(number));
  await staff.getByRole('button', { name: 'Filtrar' }).click();
  await staff.getByRole('link', { name: `#${number}` }).click();
  await expect(staff.getByRole('heading', { name: `Pedido #${number}` })).toBeVisible();

  await staff.getByRole('button', { name: 'Marcar «En preparación»' }).click();
  await expect(staff.getByText(`Pedido #${number} en preparación`, { exact: true })).toBeVisible();

  // The form checks the shared schema itself (zodResolver): an empty form says what is missing without a request.
  const shipRequests: string[] = [];
  staff.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith(`/api/admin/orders/${number}/ship`))
      shipRequests.push(r.url());
  });
  const ship = staff.getByRole('form', { name: 'Enviar pedido' });
  await ship.getByRole('button', { name: 'Marcar enviado y avisar al cliente' }).click();
  await expect(ship.getByText('Escriba la guía de rastreo')).toBeVisible();
  await expect(ship.getByText('Escriba la paquetería')).toBeVisible();
  await expect(ship.getByText('Escriba la fecha de entrega estimada')).toBeVisible();
  expect(shipRequests).toEqual([]);

  await ship.getByLabel('Guía de rastreo').fill('EST-4471902231');
  await ship.getByLabel('Paquetería').fill('Estafeta');
  const nextWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  await ship.getByLabel('Fecha de entrega estimada').fill(nextWeek);
  await ship.getByRole('button', { name: 'Marcar enviado y avisar al cliente' }).click();
  await expect(staff.getByText(`Pedido #${number} enviado; avisamos al cliente por correo`)).toBeVisible();
  await expect(staff.getByRole('heading', { name: `Pedido #${number}` }).getByText('Enviado')).toBeVisible();
  await expect(staff.getByText('Pedido enviado', { exact: true })).toBeVisible();
  await staff.screenshot({ path: 'test-results/admin-order-shipped.png', fullPage: true });

  // The shopper's history now shows the guide and no 'Cancelar pedido'.
  await page.goto('/historial');
  const shipped = page.getByRole('listitem').filter({ hasText: `Pedido #${number}` });
  await expect(shipped.getByTestId('order-status')).toHaveText('Enviado');
  await expect(shipped.getByText('EST-4471902231')).toBeVisible();
  await expect(shipped.getByRole('button', { name: 'Cancelar pedido' })).toHaveCount(0);

  // The shipping mail with the guide is in the outbox (readable at /dev/correo in development).
  const mails = await page.request.get('/dev/correo');
  expect(await mails.text()).toContain(`Su pedido #${number} va en camino`);
  await staffContext.close();
});

test('staff issue a bonificación credit note (bounded by what remains); the invoice cannot then be cancelled with 03', async ({
  page,
  browser,
}) => {
  const { number } = await shopperWithPaidOrder(page.request);
  const invoice = await page.request.post(`/api/orders/${number}/invoice`, {
    data: {
      nombreFiscal: 'Laboratorios Químicos del Bajío',
      rfc: 'LQB150101AB3',
      regimenFiscal: '601',
      usoCfdi: 'G03',
      cp: '44100',
    },
  });
  expect(invoice.status()).toBe(201);
  const { uuid: invoiceUuid, totalCents } = (
    (await invoice.json()) as {
      invoice: { uuid: string; totalCents: number };
    }
  ).invoice;

  const { context: staffContext, staff } = await signInStaff(browser, base, STAFF);
  await staff.goto(`/admin/pedidos/${number}`);

  const panel = staff.getByRole('region', { name: 'Factura y notas de crédito' });
  await expect(panel.getByText(invoiceUuid)).toBeVisible();
  const form = panel.getByRole('form', { name: 'Nota de crédito' });
  // More than the invoice total is refused before any request.
  await form.getByLabel('Importe con IVA (MXN)').fill(((totalCents + 1) / 100).toFixed(2));
  await form.getByLabel('Concepto').fill('Descuento por empaque dañado');
  await form.getByRole('button', { name: 'Emitir nota de crédito' }).click();
  await expect(form.getByText(/No puede exceder lo que queda por acreditar/)).toBeVisible();

  await form.getByLabel('Importe con IVA (MXN)').fill('100.00');
  await form.getByRole('button', { name: 'Emitir nota de crédito' }).click();
  await expect(staff.getByText(/Bonificación por 100\.00 MXN emitida como nota de crédito/)).toBeVisible();
  const notes = panel.getByRole('list', { name: 'Notas de crédito' });
  await expect(notes.getByRole('listitem')).toHaveCount(1);
  await expect(notes.getByText('Descuento por empaque dañado')).toBeVisible();
  const noteUuid = ((await notes.getByText(/^UUID /).textContent()) ?? '').replace('UUID ', '').trim();
  expect(noteUuid).toMatch(/^[0-9A-F-]{36}$/);
  const remaining = ((totalCents - 10_000) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 });
  await expect(form.getByText(`$${remaining}`, { exact: true })).toBeVisible();
  const pdfHref = await notes.getByRole('link', { name: 'PDF' }).getAttribute('href');
  const pdf = await staff.request.get(pdfHref ?? '');
  expect(pdf.status()).toBe(200);
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
  const xml = await staff.request.get(
    (await notes.getByRole('link', { name: 'XML' }).getAttribute('href')) ?? '',
  );
  expect(await xml.text()).toContain('TipoDeComprobante="E"');
  await panel.scrollIntoViewIfNeeded();
  await staff.screenshot({ path: '/work/lead/shots/cfdi2-admin-credit-note.png', fullPage: true });

  // The shopper gets the credit note by mail (the outbox, readable at /dev/correo in development).
  expect(await (await page.request.get('/dev/correo')).text()).toContain(
    `Nota de crédito del pedido #${number}`,
  );

  // …and downloads it beside the invoice on /factura (XML and PDF of each credit note).
  await page.goto(`/factura/${number}`);
  const shopperNotes = page
    .getByRole('region', { name: 'Factura emitida' })
    .getByRole('list', { name: 'Notas de crédito' });
  await expect(shopperNotes.getByRole('listitem')).toHaveCount(1);
  await expect(shopperNotes.getByText(noteUuid)).toBeVisible();
  const [noteXml] = await Promise.all([
    page.waitForEvent('download'),
    shopperNotes.getByRole('link', { name: /Descargar XML de la nota de crédito NC\d+/ }).click(),
  ]);
  expect(noteXml.suggestedFilename()).toMatch(new RegExp(`^nota-credito-NC\\d+-${noteUuid}\\.xml$`));
  const shopperPdf = await page.request.get(
    (await shopperNotes.getByRole('link', { name: /Descargar PDF/ }).getAttribute('href')) ?? '',
  );
  expect(shopperPdf.status()).toBe(200);
  expect((await shopperPdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await page.screenshot({ path: '/work/lead/shots/h14-shopper-credit-notes-1280.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: '/work/lead/shots/h14-shopper-credit-notes-390.png', fullPage: true });

  // Motivo 03 on a sale that was kept, with a credit note alive: the SAT would answer «No cancelable» and the sale
  // did take place (issue 33) — refused, and the invoice stays valid.
  await panel.getByLabel('Motivo de cancelación').selectOption('03');
  await panel.getByRole('button', { name: 'Cancelar factura' }).click();
  const [cancel] = await Promise.all([
    staff.waitForRequest(
      (r) => r.method() === 'POST' && r.url().endsWith(`/api/admin/invoices/${number}/cancel`),
    ),
    panel.getByRole('button', { name: 'Sí, cancelar factura' }).click(),
  ]);
  expect(cancel.postDataJSON()).toEqual({ motivo: '03' });
  await expect(
    staff.getByText(/el SAT no cancela una factura con documentos relacionados vigentes/),
  ).toBeVisible();
  await expect(panel.getByText(invoiceUuid)).toBeVisible();
  await staffContext.close();
});

test('the product editor opens on the product’s own group, even when the group list arrives after the product (issue 37)', async ({
  browser,
  page,
}) => {
  const { items } = (await (await page.request.get('/api/products?pageSize=5')).json()) as {
    items: { code: string }[];
  };
  const code = items[0]!.code;
  const { context, staff } = await signInStaff(browser, base, STAFF);
  const product = (await (
    await staff.request.get(`/api/admin/products/${encodeURIComponent(code)}`)
  ).json()) as {
    groupClas: string;
  };
  expect(product.groupClas).toBeTruthy();
  // The catalogue's options answer after the product, as on a slow link.
  let answered = false;
  await staff.route('**/api/admin/catalog-options', async (route) => {
    await expect
      .poll(() => staff.evaluate(() => document.querySelector('input[name="name"]') !== null))
      .toBe(true);
    answered = true;
    await route.continue();
  });
  await staff.goto(`/admin/productos/${encodeURIComponent(code)}`);
  await expect.poll(() => answered).toBe(true);
  await expect(staff.getByLabel('Grupo')).toHaveValue(product.groupClas);
  await context.close();
});
