import { expect, type Page, test } from '@playwright/test';
import { registerThroughApi } from './register-helper.ts';

/**
 * Issue 21 in the browser, on the offline gateway: pay by SPEI transfer or cash at a store. The order is made
 * with its reference, the instructions shown (and listed in the history with the deadline), the payment simulated
 * on the development page — which delivers the same webhook Openpay would — and the order, now paid, invoiced
 * with the FormaPago of the money that paid it (03 transfer, 01 cash) and MetodoPago PUE.
 * SHOTS_DIR=… saves screenshots of the instructions at 1280 and 390 px.
 */

type Card = { code: string; name: string; priceCents: number; stock: number };

async function shopperWithCart(page: Page, tag: string) {
  const res = await page.request.get('/api/products?pageSize=60');
  const { items } = (await res.json()) as { items: Card[] };
  const product = items.find((p) => p.stock >= 5);
  if (!product) throw new Error('the demo catalogue has no product in stock');
  const email = `${tag}.${Date.now()}@example.mx`;
  const reg = await registerThroughApi(page.request, {
    username: email,
    nombre: 'Lucía',
    apellidoPat: 'Hernández',
    apellidoMat: 'Ruiz',
    telefono: '3398765432',
    password: 'Pipeta.Volumetrica2024!',
  });
  expect(reg.status()).toBeLessThan(300);
  const address = await page.request.put('/api/account/shipping-address', {
    data: {
      nombreEnvio: 'Lucía Hernández Ruiz',
      telefonoEnvio: '3398765432',
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
    data: { items: [{ code: product.code, quantity: 1 }] },
  });
  expect(cart.status()).toBe(200);
  return product;
}

async function shots(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  await page.screenshot({ path: `${dir}/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${dir}/${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

for (const { method, label, formaPago, reference } of [
  { method: 'spei', label: 'Transferencia SPEI', formaPago: '03', reference: 'CLABE' },
  { method: 'cash', label: 'Efectivo en tienda', formaPago: '01', reference: 'Referencia Paynet' },
] as const) {
  test(`${label}: order → instructions → simulated payment → paid → invoice with FormaPago ${formaPago}`, async ({
    page,
  }) => {
    await shopperWithCart(page, method);
    await page.goto('/carrito');
    await page.getByRole('button', { name: 'Finalizar compra' }).click();
    await expect(page).toHaveURL(/\/orden$/);
    await page.getByRole('radio', { name: new RegExp(label) }).check();
    await shots(page, `orden-${method}`);
    await page.getByRole('button', { name: 'Generar referencia de pago' }).click();
    await expect(page).toHaveURL(/\/resumen\/\d+$/, { timeout: 30_000 });
    const order = Number(/\/resumen\/(\d+)$/.exec(page.url())?.[1]);

    await expect(page.getByRole('heading', { name: 'Pedido apartado: pendiente de pago' })).toBeVisible();
    const instructions = page.getByTestId('payment-instructions');
    await expect(instructions.getByText(reference, { exact: true })).toBeVisible();
    await expect(instructions.getByTestId('payment-deadline')).toContainText('hora del centro de México');
    if (method === 'spei') await expect(instructions.getByTestId('clabe')).toHaveText(/^646180\d{12}$/);
    else {
      const barcode = instructions.getByRole('img', { name: /Código de barras/ });
      await expect(barcode).toBeVisible();
      // The barcode has drawn (loaded and decoded), not just taken its place: a visible <img> may still be loading.
      await expect
        .poll(() => barcode.evaluate((img: HTMLImageElement) => img.naturalWidth), {
          message: 'el código de barras se dibujó',
        })
        .toBeGreaterThan(0);
    }
    await shots(page, `instrucciones-${method}`);

    // The history lists it as 'Pendiente de pago' with its deadline.
    await page.goto('/historial');
    const card = page.getByTestId('order-card').filter({ hasText: `Pedido #${order}` });
    await expect(card.getByTestId('order-status')).toHaveText('Pendiente de pago');
    await expect(card.getByTestId('order-payment-deadline')).toContainText('hora del centro de México');
    await shots(page, `historial-${method}`);

    // The development page pays it: the same webhook Openpay sends (charge.succeeded).
    await page.goto('/api/payments/sandbox/pagos');
    const row = page.locator('tr').filter({ hasText: `${order}-` });
    await row.getByRole('button', { name: 'Simular pago recibido' }).click();
    await expect(page).toHaveURL(new RegExp(`/resumen/${order}$`));
    await expect(page.getByRole('heading', { name: '¡Pedido comprado con éxito!' })).toBeVisible();
    await expect(page.getByTestId('summary-payment-method')).toHaveText(label);

    // Invoiced with the FormaPago of the money that paid it, PUE.
    await page.goto(`/factura/${order}`);
    const form = page.getByRole('form', { name: 'Datos de facturación' });
    await form.getByLabel('RFC', { exact: true }).fill('LQB150101AB3');
    await form.getByLabel('Nombre fiscal o razón social').fill('Laboratorios Químicos del Bajío');
    await form.getByLabel('Régimen fiscal').selectOption('601');
    await form.getByLabel('Uso del CFDI').selectOption('G03');
    await form.getByLabel('Código postal del domicilio fiscal').fill('44100');
    await form.getByRole('button', { name: 'Solicitar factura' }).click();
    await expect(page.getByText(/Factura generada correctamente/)).toBeVisible({ timeout: 30_000 });
    const xml = await (await page.request.get(`/api/orders/${order}/invoice.xml`)).text();
    expect(xml).toContain(`FormaPago="${formaPago}"`);
    expect(xml).toContain('MetodoPago="PUE"');
  });
}
