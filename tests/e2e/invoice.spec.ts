import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { registerThroughApi } from './register-helper.ts';

type Card = { code: string; name: string; priceCents: number; stock: number };

async function pickProduct(request: APIRequestContext) {
  const res = await request.get('/api/products?pageSize=60');
  const { items } = (await res.json()) as { items: Card[] };
  const some = items.find((p) => p.stock >= 5);
  if (!some) throw new Error('the demo catalogue has no product in stock');
  return some;
}

/** A signed-in shopper with a saved address and a cart of two units of one product. */
async function shopperWithCart(page: Page) {
  const product = await pickProduct(page.request);
  const email = `factura.${Date.now()}@example.mx`;
  const reg = await registerThroughApi(page.request, {
    username: email,
    nombre: 'Eduardo',
    apellidoPat: 'Gómez',
    apellidoMat: 'Díaz',
    telefono: '3312345678',
    password: 'Probeta.Graduada2024!',
  });
  expect(reg.status()).toBeLessThan(300);
  const address = await page.request.put('/api/account/shipping-address', {
    data: {
      nombreEnvio: 'Eduardo Gómez Díaz',
      telefonoEnvio: '3312345678',
      cpEnvio: '44530',
      calleEnvio: 'Av. Mariano Otero',
      numExtEnvio: '1249',
      numIntEnvio: '',
      coloniaEnvio: 'Rinconada del Bosque',
      municipioEnvio: 'Guadalajara',
      ciudadEnvio: 'Guadalajara',
      estadoEnvio: 'Jalisco',
    },
  });
  expect(address.status()).toBe(200);
  const cart = await page.request.put('/api/cart', {
    data: { items: [{ code: product.code, quantity: 2 }] },
  });
  expect(cart.status()).toBe(200);
  return { email, product };
}

/** Pays the cart with the sandbox gateway's approving test card; returns the order number. */
async function payCart(page: Page) {
  await page.goto('/carrito');
  await page.getByRole('button', { name: 'Finalizar compra' }).click();
  await expect(page).toHaveURL(/\/orden$/);
  const card = page.getByRole('form', { name: 'Pago con tarjeta' });
  await card.getByLabel('Nombre del titular').fill('Eduardo Gómez Díaz');
  await card.getByLabel('Número de tarjeta').fill('4111111111111111');
  await card.getByLabel('Mes', { exact: true }).fill('12');
  await card.getByLabel('Año').fill(String((new Date().getFullYear() + 2) % 100));
  await card.getByLabel('CVC').fill('123');
  await card.getByRole('button', { name: 'Pagar' }).click();
  await expect(page).toHaveURL(/\/resumen\/\d+$/, { timeout: 30_000 });
  const order = Number(/\/resumen\/(\d+)$/.exec(page.url())?.[1]);
  return order;
}

test('pay → request the invoice → download XML and PDF → cancel → request again', async ({ page }) => {
  const { email } = await shopperWithCart(page);

  const order = await payCart(page);

  // The invoice form.
  await page.goto(`/factura/${order}`);
  await expect(page.getByRole('heading', { name: `Facturación del pedido #${order}` })).toBeVisible();
  const form = page.getByRole('form', { name: 'Datos de facturación' });

  // A generic RFC disables the form.
  const rfc = form.getByLabel('RFC', { exact: true });
  await rfc.fill('xaxx010101000');
  await expect(rfc).toHaveValue('XAXX010101000');
  await expect(form.getByText(/No es posible facturar a un RFC genérico/)).toBeVisible();
  await expect(form.getByLabel('Nombre fiscal o razón social')).toBeDisabled();
  await expect(form.getByRole('button', { name: 'Solicitar factura' })).toBeDisabled();

  // The shared schema speaks before the server does.
  await rfc.fill('gode561231gr8');
  await expect(rfc).toHaveValue('GODE561231GR8');
  await form.getByLabel('Nombre fiscal o razón social').fill('Eduardo Gómez Díaz');
  await form.getByLabel('Régimen fiscal').selectOption('601');
  await form.getByLabel('Uso del CFDI').selectOption('I08');
  await form.getByLabel('Código postal del domicilio fiscal').fill('06600');
  await form.getByRole('button', { name: 'Solicitar factura' }).click();
  await expect(
    form.getByText(
      'El régimen 601 es para personas morales (RFC de 12 caracteres); revise el régimen o el RFC',
    ),
  ).toBeVisible();
  await form.getByLabel('Régimen fiscal').selectOption('605');
  await form.getByRole('button', { name: 'Solicitar factura' }).click();
  await expect(form.getByText('El uso I08 no corresponde al régimen fiscal 605')).toBeVisible();
  // Personal deductions (D01–D10) and payment receipts (CP01) are not offered for lab goods.
  await expect(form.getByLabel('Uso del CFDI').locator('option[value="D01"]')).toHaveCount(0);
  await expect(form.getByLabel('Uso del CFDI').locator('option[value="CP01"]')).toHaveCount(0);
  await form.getByLabel('Régimen fiscal').selectOption('612');
  await form.getByRole('button', { name: 'Solicitar factura' }).click();

  // Stamped (sandbox PAC): success toast with the server's message, then the downloads.
  await expect(
    page.getByText(`Factura generada correctamente. La enviamos a ${email} con el XML y el PDF.`),
  ).toBeVisible();
  const issued = page.getByRole('region', { name: 'Factura emitida' });
  await expect(issued.getByText('Prueba · sin validez fiscal')).toBeVisible();
  const uuid = (await issued.locator('dd').first().textContent())?.trim() ?? '';
  expect(uuid).toMatch(/^[0-9A-F-]{36}$/);

  const [xmlDownload] = await Promise.all([
    page.waitForEvent('download'),
    issued.getByRole('link', { name: 'Descargar XML' }).click(),
  ]);
  expect(xmlDownload.suggestedFilename()).toMatch(new RegExp(`^factura-F\\d+-${uuid}\\.xml$`));
  const xml = await (await page.request.get(`/api/orders/${order}/invoice.xml`)).text();
  expect(xml).toContain(`UUID="${uuid}"`);
  expect(xml).toContain('Rfc="GODE561231GR8"');
  expect(xml).toContain('RegimenFiscalReceptor="612"');

  const [pdfDownload] = await Promise.all([
    page.waitForEvent('download'),
    issued.getByRole('link', { name: 'Descargar PDF' }).click(),
  ]);
  expect(pdfDownload.suggestedFilename()).toMatch(/\.pdf$/);
  const pdf = await (await page.request.get(`/api/orders/${order}/invoice.pdf`)).body();
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

  // The invoice is found from the history: 'Ver factura (PDF · XML)' on the order's card and its receipt, whose
  // 'Facturar a' is the CFDI's receptor; /resumen says it was issued (issue 37, item 4).
  await page.goto('/historial');
  const orderCard = page.getByTestId('order-card').filter({ hasText: `#${order}` });
  const links = orderCard.getByTestId('invoice-links');
  await expect(links).toContainText('Ver factura (PDF · XML)');
  await expect(links.getByRole('link', { name: 'PDF' })).toHaveAttribute(
    'href',
    `/api/orders/${order}/invoice.pdf`,
  );
  await expect(links.getByRole('link', { name: 'XML' })).toHaveAttribute(
    'href',
    `/api/orders/${order}/invoice.xml`,
  );
  await expect(orderCard.getByRole('link', { name: 'Corregir o cancelar factura' })).toBeVisible();
  await orderCard.getByRole('button', { name: 'Ver recibo' }).click();
  const receipt = page.getByRole('dialog');
  await expect(receipt.getByText('EDUARDO GÓMEZ DÍAZ · RFC GODE561231GR8')).toBeVisible();
  await expect(receipt.getByTestId('invoice-links')).toContainText('Ver factura (PDF · XML)');
  await page.goto(`/resumen/${order}`);
  await expect(page.getByTestId('summary-invoice')).toContainText('Factura emitida');
  await page.goto(`/factura/${order}`);

  // Cancel (with confirmation), then the form comes back and a new invoice can be requested.
  await issued.getByRole('button', { name: 'Cancelar factura' }).click();
  await page.getByRole('button', { name: 'Sí, cancelar factura' }).click();
  await expect(
    page.getByText('Factura cancelada correctamente. Puede solicitar una nueva factura para este pedido.'),
  ).toBeVisible();
  await expect(page.getByText(/La factura anterior de este pedido/)).toContainText(uuid);

  await form.getByLabel('RFC', { exact: true }).fill('LQB150101AB3');
  await form.getByLabel('Nombre fiscal o razón social').fill('Laboratorios Químicos del Bajío');
  await form.getByLabel('Régimen fiscal').selectOption('601');
  await form.getByLabel('Uso del CFDI').selectOption('G03');
  await form.getByLabel('Código postal del domicilio fiscal').fill('44100');
  await form.getByRole('button', { name: 'Solicitar factura' }).click();
  await expect(page.getByRole('region', { name: 'Factura emitida' })).toBeVisible();
  const second = (
    await page.getByRole('region', { name: 'Factura emitida' }).locator('dd').first().textContent()
  )?.trim();
  expect(second).toMatch(/^[0-9A-F-]{36}$/);
  expect(second).not.toBe(uuid);
});

test('the invoice request starts from the default fiscal profile (issue 37, item 4)', async ({ page }) => {
  await shopperWithCart(page);
  const second = {
    rfc: 'GODE561231GR8',
    nombreFiscal: 'Eduardo Gómez Díaz',
    regimenFiscal: '612',
    usoCfdi: 'G03',
    cp: '06600',
  };
  const first = {
    rfc: 'UGU250908EF7',
    nombreFiscal: 'Universidad de Guadalajara',
    regimenFiscal: '603',
    usoCfdi: 'G03',
    cp: '44100',
  };
  expect((await page.request.post('/api/account/fiscal-profiles', { data: second })).status()).toBe(201);
  // The later one is made the default.
  expect(
    (
      await page.request.post('/api/account/fiscal-profiles', { data: { ...first, isDefault: true } })
    ).status(),
  ).toBe(201);
  const order = await payCart(page);
  await page.goto(`/factura/${order}`);
  const form = page.getByRole('form', { name: 'Datos de facturación' });
  await expect(form.getByLabel('RFC', { exact: true })).toHaveValue('UGU250908EF7');
  await expect(form.getByLabel('Nombre fiscal o razón social')).toHaveValue('Universidad de Guadalajara');
  await expect(form.getByLabel('Usar mis datos fiscales guardados').locator('option:checked')).toHaveText(
    'UGU250908EF7 · Universidad de Guadalajara',
  );
});

test('an order that is not the shopper’s says the order does not exist', async ({ page }) => {
  await shopperWithCart(page);
  await page.goto('/factura/1');
  await expect(page.getByRole('heading', { name: 'Facturación del pedido #1' })).toBeVisible();
  await expect(page.getByText('Pedido no encontrado')).toBeVisible();
});

test('«Corregir factura»: the corrected invoice replaces the old one once; then the page sends to staff', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await shopperWithCart(page);
  const order = await payCart(page);
  const first = await page.request.post(`/api/orders/${order}/invoice`, {
    data: {
      nombreFiscal: 'Eduardo Gómez Díaz',
      rfc: 'GODE561231GR8',
      regimenFiscal: '612',
      usoCfdi: 'G03',
      cp: '06600',
    },
  });
  expect(first.status()).toBe(201);
  const oldUuid = ((await first.json()) as { invoice: { uuid: string } }).invoice.uuid;

  await page.goto(`/factura/${order}`);
  const issued = page.getByRole('region', { name: 'Factura emitida' });
  await issued.getByRole('button', { name: 'Corregir factura' }).click();
  const form = page.getByRole('form', { name: 'Corrección de datos fiscales' });
  // Starts from the invoice's data; the shared schema still speaks first.
  await expect(form.getByLabel('RFC', { exact: true })).toHaveValue('GODE561231GR8');
  await expect(form.getByLabel('Nombre fiscal o razón social')).toHaveValue('Eduardo Gómez Díaz');
  await form.getByLabel('Régimen fiscal').selectOption('612');
  await form.getByLabel('Uso del CFDI').selectOption('I08');
  await form.getByLabel('Código postal del domicilio fiscal').fill('44100');
  await page.screenshot({ path: '/work/lead/shots/cfdi2-shopper-correction.png', fullPage: true });
  await form.getByRole('button', { name: 'Emitir factura corregida' }).click();

  await expect(
    page.getByText(/Emitimos la factura corregida \(sustituye a la anterior, relación 04\)/),
  ).toBeVisible();
  await expect(form).toHaveCount(0);
  const uuid = (await issued.locator('dd').first().textContent())?.trim();
  expect(uuid).toMatch(/^[0-9A-F-]{36}$/);
  expect(uuid).not.toBe(oldUuid);
  const xml = await (await page.request.get(`/api/orders/${order}/invoice.xml`)).text();
  expect(xml).toContain('TipoRelacion="04"');
  expect(xml).toContain(`UUID="${oldUuid}"`);
  expect(xml).toContain('UsoCFDI="I08"');
  // One self-service correction: now the page says to contact staff and offers neither action.
  await expect(
    issued.getByText(
      'Este pedido ya tuvo una corrección de factura; para otra, contacte al personal de la tienda',
    ),
  ).toBeVisible();
  await expect(issued.getByRole('button', { name: 'Corregir factura' })).toHaveCount(0);
  await expect(issued.getByRole('button', { name: 'Cancelar factura' })).toHaveCount(0);
});
