import { mkdirSync } from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { registerBuyerWithAddress } from './register-helper.ts';

/**
 * 'Sobre pedido' (decision 029): a presentation ordered beyond its stock says on the product page, in the cart,
 * at checkout and on the order what ships now and what later, with the promised window.
 */
type LeadTime = { minDays: number; maxDays: number };
type Detail = {
  code: string;
  name: string;
  presentationLabel: string | null;
  stock: number;
  leadTime: LeadTime | null;
  presentations: { code: string; stock: number; leadTime: LeadTime | null }[];
};

const shots = process.env.SHOTS_DIR ?? 'test-results/shots-sobre-pedido';
mkdirSync(shots, { recursive: true });

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `${shots}/desk-${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.locator('body')).toBeVisible();
  await page.screenshot({ path: `${shots}/mob-${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** A demo presentation that is 'sobre pedido' and has a few units in stock. */
async function partlyInStock(request: APIRequestContext): Promise<Detail> {
  for (const group of ['REA-SOL', 'REA-ACI', 'REA-BAS', 'VID-VAS', 'VID-MAT', 'VID-PRO']) {
    const { items } = (await (await request.get(`/api/products?group=${group}&pageSize=60`)).json()) as {
      items: { code: string; presentationCount: number }[];
    };
    for (const card of items.filter((c) => c.presentationCount > 1)) {
      const base = (await (await request.get(`/api/products/${card.code}`)).json()) as Detail;
      const option = base.presentations.find((o) => o.leadTime && o.stock > 0);
      if (option) return (await (await request.get(`/api/products/${option.code}`)).json()) as Detail;
    }
  }
  throw new Error('the demo catalogue has no sobre pedido presentation with stock');
}

test('a sobre pedido quantity above stock: the product page, the cart, checkout and the order say what ships now and later', async ({
  page,
}) => {
  const hydration: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /hydrat/i.test(m.text())) hydration.push(m.text());
  });
  const p = await partlyInStock(page.request);
  const lead = p.leadTime!;
  const later = 4;
  const quantity = p.stock + later;
  const leadText = `entrega en ${lead.minDays}–${lead.maxDays} días hábiles`;

  await page.goto(`/productos/${p.code}`);
  await expect(page.getByTestId('backorder-availability')).toHaveText(
    `Disponibles ahora: ${p.stock} · más sobre pedido (${leadText})`,
  );
  await page.getByTestId('add-to-cart').click();
  // What the buyer keeps seeing is the cart's count (the confirmation toast lasts two seconds).
  await expect(page.getByTestId('cart-count').first()).toHaveText('1');
  await shoot(page, 'producto');

  await page.goto('/carrito');
  await expect(page.getByRole('link', { name: 'Ingresar' })).toBeVisible();
  const line = page.locator(`[data-testid="cart-line"][data-code="${p.code}"]`);
  const field = line.getByRole('textbox', { name: /Cantidad de/ });
  await field.fill(String(quantity));
  await field.press('Enter');
  const split = `Disponibles ahora: ${p.stock} · ${later} sobre pedido (${leadText})`;
  await expect(line.getByTestId('backorder-split')).toHaveText(split);
  await expect(field).toHaveValue(String(quantity));
  await shoot(page, 'carrito');

  const email = `sobre.pedido.${Date.now()}@example.com`;
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
      nombreEnvio: 'Laura Méndez Ochoa',
      telefonoEnvio: '3311223344',
      cpEnvio: '44690',
      calleEnvio: 'Avenida Vallarta Poniente',
      numExtEnvio: '3040',
      numIntEnvio: '',
      coloniaEnvio: 'Vallarta Norte',
      municipioEnvio: 'Guadalajara',
      ciudadEnvio: 'Guadalajara',
      estadoEnvio: 'Jalisco',
      paisEnvio: 'México',
    },
  );

  await page.goto('/orden');
  await expect(page.getByTestId('order-line')).toHaveCount(1);
  await expect(page.getByTestId('line-backorder')).toHaveText(split);
  await page.getByLabel('Nombre del titular').fill('Laura Méndez Ochoa');
  await page.getByLabel('Número de tarjeta').fill('4111111111111111');
  await page.getByLabel('Mes', { exact: true }).fill('12');
  await page.getByLabel('Año').fill(String((new Date().getFullYear() + 2) % 100));
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Pagar' }).click();

  await expect(page).toHaveURL(/\/resumen\/\d+$/);
  await expect(page.getByTestId('line-backorder')).toContainText(
    `Se envían ahora: ${p.stock} · ${later} sobre pedido, entrega entre el `,
  );
  await expect(page.getByTestId('ship-now')).toContainText('Lo disponible se envía a más tardar el');
  await shoot(page, 'pedido');

  expect(hydration).toEqual([]);
  // Stock went to 0, never below; the backordered units were not taken from it.
  const stock = (await (await page.request.get(`/api/products/${p.code}/stock`)).json()) as { stock: number };
  expect(stock.stock).toBe(0);
});

test('a product sobre pedido with nothing in stock: its card says so and it can still be added', async ({
  page,
}) => {
  let found: { code: string; name: string; leadTime: LeadTime } | undefined;
  for (let n = 1; n <= 12 && !found; n++) {
    const { items } = (await (await page.request.get(`/api/products?pageSize=60&page=${n}`)).json()) as {
      items: { code: string; name: string; familyStock: number; leadTime: LeadTime | null }[];
    };
    const card = items.find((c) => c.leadTime && c.familyStock < 1);
    if (card) found = { code: card.code, name: card.name, leadTime: card.leadTime! };
  }
  expect(found, 'the demo has a sobre pedido product with stock 0').toBeTruthy();
  await page.goto(`/busqueda/${encodeURIComponent(found!.code)}`);
  const card = page.getByTestId('product-card').filter({ hasText: found!.code });
  await expect(card.getByTestId('card-backorder')).toHaveText(
    `Sobre pedido · entrega en ${found!.leadTime.minDays}–${found!.leadTime.maxDays} días hábiles`,
  );
  await card.getByTestId('card-add').click();
  await expect(card.getByTestId('card-add-count')).toHaveText('1');
  await shoot(page, 'tarjeta');
});
