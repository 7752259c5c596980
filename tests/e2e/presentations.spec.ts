import { type APIRequestContext, expect, test } from '@playwright/test';
import { AFTER_FIRST_CLICK } from './first-click.ts';
import { registerThroughApi } from './register-helper.ts';

type Card = { code: string; presentationCount: number; fromPriceCents: number | null };
type Detail = {
  code: string;
  name: string;
  presentationLabel: string | null;
  priceCents: number;
  stock: number;
  presentations: { code: string; label: string | null; priceCents: number; stock: number }[];
  priceBreaks: { minQuantity: number; priceCents: number }[];
};

const money = (cents: number) =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/**
 * A reagent family of the demo catalogue with a second presentation that has stock for its first volume price
 * (and, given `units`, whose first volume price starts at most there, with stock for that many).
 */
async function pickFamily(request: APIRequestContext, units = 0) {
  for (const group of ['REA-SOL', 'REA-ACI', 'REA-BAS', 'VID-VAS']) {
    const { items } = (await (await request.get(`/api/products?group=${group}&pageSize=60`)).json()) as {
      items: Card[];
    };
    for (const card of items.filter((c) => c.presentationCount > 1)) {
      const base = (await (await request.get(`/api/products/${card.code}`)).json()) as Detail;
      for (const option of base.presentations.filter((o) => o.code !== base.code)) {
        const other = (await (await request.get(`/api/products/${option.code}`)).json()) as Detail;
        const first = other.priceBreaks[0];
        if (
          first &&
          other.stock >= Math.max(first.minQuantity, units) &&
          first.minQuantity <= (units || Infinity)
        )
          return { base, other, first };
      }
    }
  }
  throw new Error('the demo catalogue has no family with a stocked presentation and volume prices');
}

test('pick a presentation, see its price and stock, add it, and see the volume price apply in the cart', async ({
  page,
  request,
}) => {
  const { base, other, first } = await pickFamily(request);

  await page.goto(`/productos/${base.code}`);
  const options = page.getByTestId('presentation-option');
  await expect(options).toHaveCount(base.presentations.length);
  await expect(options.filter({ hasText: base.code })).toHaveAttribute('aria-current', 'true');

  // Choosing the other presentation shows its own address, code, price, stock and volume prices.
  await options.filter({ hasText: other.code }).click();
  await expect(page).toHaveURL(new RegExp(`/productos/${other.code}$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(other.presentationLabel!);
  await expect(page.getByText(`Código: ${other.code}`)).toBeVisible();
  await expect(page.getByText(`${money(other.priceCents)} MXN`, { exact: true })).toBeVisible();
  await expect(
    page.getByText(`${other.stock.toLocaleString('en-US')} disponibles`, { exact: true }),
  ).toBeVisible();
  await expect(options.filter({ hasText: other.code })).toHaveAttribute('aria-current', 'true');
  const table = page.getByTestId('volume-prices');
  await expect(table.getByRole('row', { name: new RegExp(`^${first.minQuantity}–`) })).toContainText(
    money(first.priceCents),
  );

  await page.getByTestId('add-to-cart').click();
  await expect(page.getByText('Producto agregado al carrito')).toBeVisible(AFTER_FIRST_CLICK);

  await page.goto('/carrito');
  // Hydrated (the header's account links come from the session request made after hydration): the quantity
  // field answers Enter from then on.
  await expect(page.getByRole('link', { name: 'Ingresar' })).toBeVisible();
  const line = page.locator(`[data-testid="cart-line"][data-code="${other.code}"]`);
  await expect(line).toContainText(`${other.name}, ${other.presentationLabel}`);
  await expect(line.getByTestId('unit-price')).toHaveText(money(other.priceCents));
  await expect(line.getByTestId('next-break')).toHaveText(
    `Agregue ${first.minQuantity - 1} más para pagar ${money(first.priceCents)} c/u`,
  );

  const quantity = line.getByRole('textbox', { name: /Cantidad de/ });
  await quantity.fill(String(first.minQuantity));
  await quantity.press('Enter');
  await expect(line.getByTestId('unit-price')).toHaveText(money(first.priceCents));
  await expect(line.getByTestId('volume-applied')).toContainText(money(other.priceCents));
  await expect(line.getByTestId('line-total')).toHaveText(money(first.priceCents * first.minQuantity));
  await expect(page.getByTestId('price-changed')).toHaveCount(0);

  // The totals are the server's quote at the volume price.
  const quote = (await (
    await request.post('/api/cart/quote', {
      data: { items: [{ code: other.code, quantity: first.minQuantity }] },
    })
  ).json()) as { subtotalCents: number };
  expect(quote.subtotalCents).toBe(first.priceCents * first.minQuantity);
  await expect(page.getByTestId('summary-subtotal')).toHaveText(money(quote.subtotalCents));
});

test('a signed-in buyer who reloads the cart sees the lines at the volume price, adding up to the subtotal, with the presentation', async ({
  page,
}) => {
  const { other, first } = await pickFamily(page.request);
  const registered = await registerThroughApi(page.request, {
    username: `volumen.${Date.now()}@example.mx`,
    nombre: 'Rocío',
    apellidoPat: 'Navarro',
    apellidoMat: 'Ibarra',
    telefono: '3312345678',
    password: 'Matraz.Kitasato2024!',
  });
  expect(registered.ok(), await registered.text()).toBe(true);
  const saved = async () =>
    ((await (await page.request.get('/api/cart')).json()) as { items: { quantity: number }[] }).items[0]
      ?.quantity ?? 0;

  await page.goto(`/productos/${other.code}`);
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByTestId('add-to-cart-count')).toHaveText('1', AFTER_FIRST_CLICK);
  await page.goto('/carrito');
  // Hydrated (the header's account menu comes from the session request made after hydration).
  await expect(page.getByRole('button', { name: 'Cuenta de Rocío' })).toBeVisible();
  const line = page.locator(`[data-testid="cart-line"][data-code="${other.code}"]`);
  const quantity = line.getByRole('textbox', { name: /Cantidad de/ });
  await quantity.fill(String(first.minQuantity));
  await quantity.press('Enter');
  await expect(line.getByTestId('unit-price')).toHaveText(money(first.priceCents));
  await expect.poll(saved).toBe(first.minQuantity);

  // Reopening the cart on this device: the saved cart arrives after the server's quote, with the same quantities.
  const synced = page.waitForResponse((r) => /\/api\/cart$/.test(r.url()) && r.request().method() === 'GET');
  await page.reload();
  await synced;
  const total = money(first.priceCents * first.minQuantity);
  await expect(page.getByTestId('summary-subtotal')).toHaveText(total);
  await expect(line).toContainText(`${other.name}, ${other.presentationLabel}`);
  await expect(line.getByTestId('unit-price')).toHaveText(money(first.priceCents));
  await expect(line.getByTestId('line-total')).toHaveText(total);
  await expect(line.getByTestId('volume-applied')).toContainText(money(other.priceCents));
  await expect(quantity).toHaveValue(String(first.minQuantity));
});

test('type 12 beside the button on the product page (before it has hydrated), add, and the cart holds 12 at the volume price', async ({
  page,
}) => {
  const { other, first } = await pickFamily(page.request, 12);
  const second = other.priceBreaks[1];
  const unit = second && second.minQuantity <= 12 ? second.priceCents : first.priceCents;

  // Hold the page's JavaScript back until the buyer has typed and clicked on the server-rendered page.
  let release!: () => void;
  const clicked = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/assets/**/*.js', async (route) => {
    await clicked;
    await route.continue();
  });
  await page.goto(`/productos/${other.code}`, { waitUntil: 'domcontentloaded' });
  const quantity = page.getByRole('spinbutton', { name: 'Cantidad' });
  await expect(quantity).toHaveValue('1');
  await expect(quantity).toHaveAttribute('max', String(other.stock));
  await quantity.fill('12');
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByTestId('add-to-cart-count')).toHaveText('0');
  release();
  await expect(page.getByTestId('add-to-cart-count')).toHaveText('12', AFTER_FIRST_CLICK);
  await expect(page.getByText('Producto agregado al carrito')).toBeVisible();

  // More than the presentation's stock is refused, saying how many more fit, and the cart keeps its 12.
  await quantity.fill(String(other.stock));
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByText('Límite de stock')).toBeVisible();
  await expect(
    page.getByText(`Puede agregar hasta ${other.stock - 12} (su carrito ya tiene 12).`),
  ).toBeVisible();
  await expect(page.getByTestId('add-to-cart-count')).toHaveText('12');

  await page.getByTestId('cart-count').click();
  await expect(page).toHaveURL(/\/carrito$/);
  const line = page.locator(`[data-testid="cart-line"][data-code="${other.code}"]`);
  await expect(line.getByRole('textbox', { name: /Cantidad de/ })).toHaveValue('12');
  await expect(line.getByTestId('unit-price')).toHaveText(money(unit));
  await expect(line.getByTestId('line-total')).toHaveText(money(unit * 12));
  await expect(page.getByTestId('summary-subtotal')).toHaveText(money(unit * 12));
});

test('quick order reads 2,030 as two thousand thirty, refuses «x» by name, and previews the volume price the cart will charge', async ({
  page,
}) => {
  const { base, other, first } = await pickFamily(page.request, 12);
  const second = other.priceBreaks[1];
  const unit = second && second.minQuantity <= 12 ? second.priceCents : first.priceCents;

  await page.goto('/pedido_rapido');
  await page
    .getByLabel('Códigos y cantidades')
    .fill([`${other.code}\t12`, `${base.code}\t2,030`, `${other.code} x`].join('\n'));
  await page.getByRole('button', { name: 'Revisar lista' }).click(AFTER_FIRST_CLICK);
  const lines = page.locator('li[data-status]');
  await expect(lines.nth(0)).toHaveAttribute('data-status', 'ok', AFTER_FIRST_CLICK);
  await expect(lines.nth(0)).toContainText(`12 × ${money(unit)}`);
  await expect(lines.nth(0)).toContainText(`Precio por volumen · lista ${money(other.priceCents)}`);
  await expect(lines.nth(1)).toContainText(/pide 2030|2030 ×/);
  await expect(lines.nth(2)).toHaveAttribute('data-status', 'invalid');
  await expect(lines.nth(2)).toContainText('Cantidad no válida: «x»');
});
