import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { AFTER_FIRST_CLICK } from './first-click.ts';

type Card = { code: string; name: string; priceCents: number; stock: number; imageUrl: string | null };
type Quote = { subtotalCents: number; shippingCents: number; totalCents: number; ivaCents: number };

const money = (cents: number) =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Two products of the demo catalogue: one with exactly 1 in stock, one with a few units. */
async function pickProducts(request: APIRequestContext) {
  let one: Card | undefined;
  let some: Card | undefined;
  for (let page = 1; page <= 10 && !(one && some); page++) {
    const res = await request.get(`/api/products?pageSize=60&page=${page}`);
    const { items } = (await res.json()) as { items: Card[] };
    one ??= items.find((p) => p.stock === 1);
    some ??= items.find((p) => p.stock >= 3 && p.stock <= 40 && p.imageUrl);
  }
  if (!one || !some) throw new Error('the demo catalogue has no product with stock 1 or 3–40');
  return { one, some };
}

async function serverQuote(request: APIRequestContext, items: { code: string; quantity: number }[]) {
  const res = await request.post('/api/cart/quote', { data: { items } });
  expect(res.status()).toBe(200);
  return (await res.json()) as Quote;
}

async function expectSummary(page: Page, quote: Quote) {
  const summary = page.getByTestId('cart-summary');
  await expect(summary).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('summary-subtotal')).toHaveText(money(quote.subtotalCents));
  await expect(page.getByTestId('summary-shipping')).toHaveText(money(quote.shippingCents));
  await expect(page.getByTestId('summary-total')).toHaveText(money(quote.totalCents));
  await expect(page.getByTestId('summary-iva')).toHaveText(`Incluye IVA por ${money(quote.ivaCents)}`);
}

test('add from the detail, stock limit, quantities, remove; the totals are the server quote', async ({
  page,
  request,
}) => {
  const { one, some } = await pickProducts(request);
  const count = page.getByTestId('cart-count');

  await page.goto(`/productos/${some.code}`);
  const add = page.getByTestId('add-to-cart');
  await expect(add).toContainText('Agregar a carrito');
  await expect(page.getByTestId('add-to-cart-count')).toHaveText('0');
  await add.click();
  await expect(page.getByText('Producto agregado al carrito')).toBeVisible(AFTER_FIRST_CLICK);
  await add.click();
  await expect(page.getByTestId('add-to-cart-count')).toHaveText('2');
  await expect(count).toHaveText('2');

  await page.goto(`/productos/${one.code}`);
  await page.getByTestId('add-to-cart').click();
  await expect(count).toHaveText('3');
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByText('Límite de stock')).toBeVisible();
  await expect(count).toHaveText('3');
  await expect(page.getByTestId('add-to-cart-count')).toHaveText('1');

  await page.getByRole('link', { name: /Carrito: 3 artículos/ }).click();
  await expect(page).toHaveURL(/\/carrito$/);
  await expect(page.getByRole('heading', { name: /Carrito de compras/ })).toBeVisible();
  const steps = page.getByRole('navigation', { name: 'Pasos de la compra' });
  await expect(steps).toContainText('Revisar carrito');
  await expect(steps).toContainText('Datos de domicilio');
  await expect(steps).toContainText('Pago');
  const lines = page.getByTestId('cart-line');
  await expect(lines).toHaveCount(2);
  const someLine = lines.filter({ hasText: some.name });
  await expect(someLine.getByRole('link', { name: some.name })).toHaveAttribute(
    'href',
    `/productos/${some.code}`,
  );
  await expect(someLine.getByText('Entrega inmediata')).toBeVisible();
  await expect(someLine.getByTestId('unit-price')).toHaveText(money(some.priceCents));
  await expect(someLine.locator('img')).toHaveAttribute('src', `${some.imageUrl}&w=160`);
  await expectSummary(
    page,
    await serverQuote(request, [
      { code: some.code, quantity: 2 },
      { code: one.code, quantity: 1 },
    ]),
  );

  // Above the stock: refused with 'Sin existencia', the quantity stays.
  const qty = someLine.getByRole('textbox', { name: `Cantidad de ${some.name}` });
  await qty.fill(String(some.stock + 1));
  await qty.press('Enter');
  await expect(page.getByText('Sin existencia')).toBeVisible();
  await expect(qty).toHaveValue('2');
  // Digits only; 0 is refused.
  await qty.fill('0');
  await qty.press('Enter');
  await expect(page.getByText('La cantidad debe ser mayor que 0')).toBeVisible();
  await expect(qty).toHaveValue('2');
  await qty.fill('3a');
  await expect(qty).toHaveValue('3');
  await qty.press('Enter');
  await expect(count).toHaveText('4');
  await expect(someLine.getByTestId('line-total')).toHaveText(money(some.priceCents * 3));
  await expectSummary(
    page,
    await serverQuote(request, [
      { code: some.code, quantity: 3 },
      { code: one.code, quantity: 1 },
    ]),
  );

  // A visitor signs in first; the purchase then goes on (/orden, or /envio without an address).
  await page.getByRole('button', { name: 'Finalizar compra' }).click();
  await expect(page).toHaveURL(/\/ingresar\?redirect=(%2F|\/)orden$/);
  await page.goBack();

  await page.getByRole('button', { name: `Eliminar ${one.name} del carrito` }).click();
  await expect(lines).toHaveCount(1);
  await expect(count).toHaveText('3');
  await expectSummary(page, await serverQuote(request, [{ code: some.code, quantity: 3 }]));

  await page.getByRole('button', { name: `Eliminar ${some.name} del carrito` }).click();
  await expect(page.getByText('Su carrito está vacío')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Finalizar compra' })).toHaveCount(0);
  await expect(count).toHaveText('0');
  await page.getByRole('link', { name: 'Seguir comprando' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("the server's stock refuses a quantity the stored cart would allow; a failed quote shows shipping 0", async ({
  page,
  request,
}) => {
  const { some } = await pickProducts(request);
  // A stale stored cart believes there are 9999 units; the quote is made to fail so nothing refreshes it.
  await page.addInitScript((item) => {
    localStorage.setItem('cartItems', JSON.stringify([{ ...item, quantity: 1, stock: 9999 }]));
  }, some);
  await page.route('**/api/cart/quote', (route) => route.abort());
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });

  await page.goto('/carrito');
  await expect(page.getByTestId('summary-shipping')).toHaveText('$0.00');
  await expect(page.getByTestId('summary-total')).toHaveText(money(some.priceCents));
  await expect.poll(() => consoleErrors).toContain('Error al obtener el precio de envío');

  const qty = page.getByRole('textbox', { name: `Cantidad de ${some.name}` });
  await qty.fill(String(some.stock + 1));
  await qty.press('Enter');
  await expect(page.getByText('Sin existencia')).toBeVisible();
  await expect(qty).toHaveValue('1');
  // The refusal also stores the server's stock, so the next try is caught in the browser.
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('cartItems') ?? '[]'));
  expect(stored[0]).toMatchObject({ quantity: 1, stock: some.stock });

  await qty.fill(String(some.stock));
  await qty.press('Enter');
  await expect(page.getByTestId('line-total')).toHaveText(money(some.priceCents * some.stock));
});

test("a stored price that changed shows the server's price and says so", async ({ page, request }) => {
  const { some } = await pickProducts(request);
  await page.addInitScript((item) => {
    if (!sessionStorage.getItem('seeded')) {
      localStorage.setItem('cartItems', JSON.stringify([{ ...item, quantity: 2, priceCents: 100 }]));
      sessionStorage.setItem('seeded', '1');
    }
  }, some);
  await page.goto('/carrito');
  await expect(page.getByTestId('unit-price')).toHaveText(money(some.priceCents));
  await expect(page.getByTestId('price-changed')).toHaveText(
    `El precio cambió: antes $1.00, ahora ${money(some.priceCents)}`,
  );
  await expectSummary(page, await serverQuote(request, [{ code: some.code, quantity: 2 }]));
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('cartItems') ?? '[]'));
  expect(stored[0].priceCents).toBe(some.priceCents);
});

test('the cart fits a 390 px phone', async ({ page, request }) => {
  const { one, some } = await pickProducts(request);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.addInitScript(
    (items) => localStorage.setItem('cartItems', JSON.stringify(items)),
    [
      { ...some, quantity: 2 },
      { ...one, quantity: 1 },
    ],
  );
  await page.goto('/carrito');
  await expect(page.getByTestId('cart-line')).toHaveCount(2);
  await expect(page.getByTestId('cart-summary')).toHaveAttribute('aria-busy', 'false');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
