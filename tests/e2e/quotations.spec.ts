import { mkdirSync, readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { pdfText } from '../server/support/pdf-text.ts';
import { registerBuyerWithAddress } from './register-helper.ts';

/**
 * Issue 20, the institutional buyer's journey: cart → 'Solicitar cotización' → the PDF downloaded →
 * 'Convertir en pedido' at the quoted prices with a purchase-order number → paid → the order shows the PO →
 * the CFDI's PDF prints it.
 */
const shots = process.env.SHOTS_DIR ?? 'test-results/shots-quotations';
mkdirSync(shots, { recursive: true });

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `${shots}/desk-${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.locator('body')).toBeVisible();
  await page.screenshot({ path: `${shots}/mob-${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('cart → cotización → PDF → convert → pay with PO → order with PO and CFDI', async ({ page }) => {
  const email = `compras.${Date.now()}@example.mx`;
  await registerBuyerWithAddress(
    page.request,
    {
      username: email,
      password: 'Matraz#2024x',
      nombre: 'Laura',
      apellidoPat: 'Méndez',
      apellidoMat: 'Ochoa',
      telefono: '3311223344',
    },
    {
      nombreEnvio: 'Laboratorio de Química Analítica, CUCEI',
      telefonoEnvio: '3311223344',
      cpEnvio: '44430',
      calleEnvio: 'Boulevard Marcelino García Barragán',
      numExtEnvio: '1421',
      numIntEnvio: 'Edif. R',
      coloniaEnvio: 'Olímpica',
      municipioEnvio: 'Guadalajara',
      ciudadEnvio: 'Guadalajara',
      estadoEnvio: 'Jalisco',
      paisEnvio: 'México',
    },
  );

  // Saved fiscal data, for 'Facturar esta compra'.
  const fiscal = await page.request.post('/api/account/fiscal-profiles', {
    data: {
      rfc: 'UGU250908EF7',
      nombreFiscal: 'Universidad de Guadalajara',
      regimenFiscal: '603',
      usoCfdi: 'G03',
      cp: '44100',
      email: `facturas.${Date.now()}@example.mx`,
    },
  });
  expect(fiscal.status(), await fiscal.text()).toBe(201);

  const list = await page.request.get('/api/products?pageSize=60&page=2');
  const { items } = (await list.json()) as { items: { code: string; stock: number; priceCents: number }[] };
  const products = items.filter((p) => p.stock >= 5).slice(0, 3);
  for (const [i, p] of products.entries()) {
    await page.goto(`/productos/${encodeURIComponent(p.code)}`);
    await page.getByTestId('add-to-cart').click();
    // The cart's count, not the 2-second toast: it stays.
    await expect(page.getByTestId('cart-count')).toHaveText(String(i + 1));
  }

  await page.goto('/carrito');
  await page.getByRole('button', { name: 'Solicitar cotización' }).click();
  const form = page.getByRole('form', { name: 'Solicitar cotización' });
  await form.getByLabel('Institución o empresa').fill('Universidad de Guadalajara, CUCEI');
  await form.getByLabel('RFC').fill('UGU250908EF7');
  await form.getByLabel('Referencia u orden de compra').fill('REQ-CUCEI-2026-0412');
  await shoot(page, 'carrito-solicitar');
  await form.getByRole('button', { name: 'Generar cotización' }).click();

  await expect(page).toHaveURL(/\/cotizaciones\?folio=COT-\d{4}-\d{6}$/);
  const folio = decodeURIComponent(/folio=([^&]+)/.exec(page.url())![1]!);
  const card = page.getByTestId('quotation-card').filter({ hasText: folio });
  await expect(card.getByTestId('quotation-state')).toHaveText('Vigente');
  await expect(card.getByRole('row')).toHaveCount(1 + products.length);
  await shoot(page, 'cotizaciones');

  // The PDF, as the buyer downloads it.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('link', { name: 'Descargar PDF' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`Cotizacion-${folio}.pdf`);
  const pdfPath = `${shots}/${folio}.pdf`;
  await download.saveAs(pdfPath);
  const text = pdfText(readFileSync(pdfPath));
  for (const expected of [folio, 'Universidad de Guadalajara, CUCEI', 'UGU250908EF7', 'REQ-CUCEI-2026-0412'])
    expect(text).toContain(expected);
  const quoted = (await (await page.request.get(`/api/quotations/${folio}`)).json()) as {
    totalCents: number;
  };

  // Convert: checkout at the quotation's prices, the PO carried over from it and changed by the buyer.
  await card.getByRole('button', { name: 'Convertir en pedido' }).click();
  await expect(page).toHaveURL(new RegExp(`/orden\\?cotizacion=${folio}$`));
  await expect(page.getByRole('heading', { name: `Productos de la cotización ${folio}` })).toBeVisible();
  const po = page.getByLabel('Número de orden de compra (opcional)');
  await expect(po).toHaveValue('REQ-CUCEI-2026-0412');
  await po.fill('OC-UDG-2026-000123');
  await expect(page.getByTestId('order-total')).toHaveText(
    `$${(quoted.totalCents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`,
  );
  await page.getByLabel('Facturar esta compra').check();
  await expect(page.getByLabel('Datos fiscales para la factura')).toContainText('UGU250908EF7');
  await shoot(page, 'orden-cotizacion');
  await page.getByLabel('Nombre del titular').fill('Laura Méndez Ochoa');
  await page.getByLabel('Número de tarjeta').fill('4111111111111111');
  await page.getByLabel('Mes', { exact: true }).fill('12');
  await page.getByLabel('Año').fill(String((new Date().getFullYear() + 2) % 100));
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Pagar' }).click();
  await expect(page).toHaveURL(/\/resumen\/\d+$/, { timeout: 30_000 });
  const order = Number(/\/resumen\/(\d+)$/.exec(page.url())![1]);
  await expect(page.getByTestId('summary-purchase-order')).toHaveText('OC-UDG-2026-000123');
  await expect(page.getByTestId('summary-total')).toHaveText(
    `$${(quoted.totalCents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`,
  );
  await shoot(page, 'resumen');

  // The quotation now says where it went; it cannot be converted again.
  await page.goto('/cotizaciones');
  const done = page.getByTestId('quotation-card').filter({ hasText: folio });
  await expect(done.getByTestId('quotation-state')).toHaveText('Convertida en pedido');
  await expect(done.getByRole('link', { name: `#${order}` })).toBeVisible();
  await expect(done.getByRole('button', { name: 'Convertir en pedido' })).toHaveCount(0);

  // 'Facturar esta compra': the CFDI is issued right after the payment, and it prints the purchase order.
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/api/orders/${order}/invoice`)).json()) as { state: string }).state,
      {
        timeout: 30_000,
      },
    )
    .toBe('issued');
  const cfdiPdf = await (await page.request.get(`/api/orders/${order}/invoice.pdf`)).body();
  expect(pdfText(cfdiPdf)).toContain('OC-UDG-2026-000123');
});
