import { randomUUID } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { formatMoney } from '../../src/shared/money.ts';
import { sandboxCardToken } from './card-helper.ts';
import { ownShop } from './own-server.ts';
import { registerBuyerWithAddress } from './register-helper.ts';
import { signInStaff } from './staff-session.ts';

/**
 * The admin's home is the dashboard (issue 36, decision 065): a buyer pays two orders by card and leaves one SPEI
 * order unpaid; staff sign in and land on «Tablero», whose figures show those sales today, the SPEI payment awaited,
 * the product among the best sellers and the orders by state — with its charts. Screenshot at 1280 px
 * (test-results/dashboard-1280.png; SHOTS_DIR=… saves it there too). Its own shop, like admin.spec.ts: staff accounts
 * are made with `npm run staff:create` before the server opens the embedded database.
 */
const STAFF = {
  email: 'direccion@ciencia-occidente.mx',
  password: 'Direccion#Tablero2025',
  nombre: 'Dirección',
};
const shop = ownShop('dashboard', STAFF);
const { base } = shop;

test.use({ baseURL: base });
test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  await shop.start();
});

test.afterAll(() => shop.stop());

async function buyer(page: Page) {
  const { items } = (await (await page.request.get('/api/products?pageSize=60')).json()) as {
    items: { code: string; name: string; stock: number }[];
  };
  const product = items.find((p) => p.stock >= 5);
  if (!product) throw new Error('the demo catalogue has no product in stock');
  await registerBuyerWithAddress(
    page.request,
    {
      username: `tablero.${Date.now()}@example.mx`,
      nombre: 'Adriana',
      apellidoPat: 'Navarro',
      apellidoMat: 'Ruiz',
      telefono: '3319876543',
      password: 'Probeta.Graduada2025!',
    },
    {
      nombreEnvio: 'Adriana Navarro Ruiz',
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
  );
  const order = async (data: Record<string, unknown>, status: number) => {
    const placed = await page.request.post('/api/orders', {
      headers: { 'Idempotency-Key': randomUUID() },
      data: { items: [{ code: product.code, quantity: 1 }], ...data },
    });
    expect(placed.status(), await placed.text()).toBe(status);
    const { number } = (await placed.json()) as { number: number };
    return ((await (await page.request.get(`/api/orders/${number}`)).json()) as { totalCents: number })
      .totalCents;
  };
  const card = async () =>
    order(
      { cardToken: await sandboxCardToken(page.request, 'Adriana Navarro'), deviceSessionId: 'tablero' },
      201,
    );
  const paid = [await card(), await card()];
  const awaiting = await order({ paymentMethod: 'spei' }, 202);
  return { product, paidCents: paid[0]! + paid[1]!, awaitingCents: awaiting };
}

test('staff land on the dashboard: today’s sales, the SPEI payment awaited, best sellers, orders by state', async ({
  page,
  browser,
}) => {
  const { product, paidCents, awaitingCents } = await buyer(page);

  // Password and second factor (tests/e2e/staff-session.ts); null: stay where signing in lands.
  const { context, staff } = await signInStaff(browser, base, STAFF, null);
  await expect(staff).toHaveURL(/\/admin\/tablero$/);
  await expect(staff.getByRole('heading', { name: 'Tablero', level: 1 })).toBeVisible();
  await expect(staff.getByRole('link', { name: 'Tablero' })).toHaveAttribute('aria-current', 'page');

  // Two card orders paid today; nothing given back; the SPEI order is not a sale until paid.
  const today = staff.getByTestId('ventas-today');
  await expect(today.getByText(formatMoney(paidCents), { exact: true })).toHaveCount(2);
  await expect(today).toContainText('2 pedidos');
  const awaiting = staff.getByRole('link', { name: /Pagos diferidos por recibir/ });
  await expect(awaiting).toContainText(formatMoney(awaitingCents));
  await expect(awaiting).toContainText('1');

  await expect(staff.getByRole('img', { name: /Ventas netas por día/ })).toBeVisible();
  const panel = (title: string) =>
    staff.locator('section', { has: staff.getByRole('heading', { name: title, exact: true }) });
  const best = panel('Productos más vendidos · 30 días');
  await expect(best.getByRole('link', { name: product.name })).toBeVisible();
  const orders = panel('Pedidos por estado');
  await expect(orders.getByText('Pagado').first()).toBeVisible();
  await expect(orders.getByText('Pago pendiente').first()).toBeVisible();

  await staff.screenshot({ path: 'test-results/dashboard-1280.png', fullPage: true });
  if (process.env.SHOTS_DIR)
    await staff.screenshot({ path: `${process.env.SHOTS_DIR}/dashboard-1280.png`, fullPage: true });
  // On a phone the sections stack under the menu and the figures stay readable: no page wider than the screen.
  await staff.setViewportSize({ width: 390, height: 844 });
  await expect(staff.getByTestId('ventas-today')).toBeVisible();
  expect(await staff.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await staff.screenshot({ path: 'test-results/dashboard-390.png', fullPage: true });
  await context.close();
});
