import { type APIRequestContext, expect, type Page, test } from '@playwright/test';

type Card = {
  code: string;
  name: string;
  brand: string | null;
  priceCents: number;
  stock: number;
  imageUrl: string | null;
};
type Detail = Card & { longDescHtml: string; datasheetUrl: string | null };
type Facet = { value: string; label: string; count: number };
type List = {
  items: Card[];
  total: number;
  pages: number;
  facets: { brands: Facet[]; groups: Facet[]; lines: Facet[]; types: Facet[] };
};

const api = async <T>(request: APIRequestContext, path: string) => {
  const res = await request.get(path);
  expect(res.status(), path).toBe(200);
  return (await res.json()) as T;
};

/** Walks the demo catalogue (≈600 products) for the first product that matches. */
async function findProduct(request: APIRequestContext, match: (p: Detail) => boolean, detail = false) {
  for (let page = 1; page <= 12; page++) {
    const { items } = await api<List>(request, `/api/products?pageSize=60&page=${page}`);
    for (const card of items) {
      const p = detail ? await api<Detail>(request, `/api/products/${card.code}`) : (card as Detail);
      if (match(p)) return p;
    }
  }
  throw new Error('no product in the demo catalogue matches');
}

const cards = (page: Page) => page.getByTestId('product-card');
const priceOf = async (card: ReturnType<Page['getByTestId']>) =>
  Number((await card.getByText(/ mxn$/).innerText()).replace(/[$,]|\s*mxn/g, ''));

test('home → brands → brand → filter → page 2 → product → back keeps the view', async ({ page, request }) => {
  await page.goto('/');
  await expect(page).toHaveTitle('Suministros Científicos de Occidente, S.A. de C.V.');
  await expect(page.getByRole('heading', { name: 'Enfocados en la excelencia' })).toBeVisible();
  await expect(page.getByText('Todos nuestros productos son de la mejor calidad')).toBeVisible();
  const featured = page.getByRole('region', { name: 'Nuestras marcas' }).getByRole('listitem');
  await expect(featured).toHaveCount(5);
  await expect(featured.getByRole('img')).toHaveCount(5);
  await expect(page.getByText('Vea nuestras marcas')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ver', exact: true })).toHaveAttribute(
    'href',
    '/todas_las_marcas',
  );

  await page.getByRole('link', { name: 'Nuestros productos' }).click();
  await expect(page).toHaveURL(/\/todas_las_marcas$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Nuestras marcas' })).toBeVisible();
  // Brands without a logo show their name as text.
  await expect(page.getByRole('link', { name: /^Analytix/ })).toHaveAttribute('href', '/marcas/Analytix');
  await page.getByRole('link', { name: /^Metrion/ }).click();

  await expect(page).toHaveURL(/\/marcas\/Metrion$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Metrion' })).toBeVisible();
  await expect(page).toHaveTitle(/^Metrion \|/);
  const all = await api<List>(request, '/api/products?brand=Metrion');
  await expect(page.getByText(`${all.total} productos`, { exact: true })).toBeVisible();
  await expect(cards(page)).toHaveCount(9);
  const related = page.getByRole('complementary', { name: 'Filtros' });
  const firstGroup = all.facets.groups[0]!;
  await expect(
    related.getByRole('link', { name: `${firstGroup.label} ${firstGroup.count}` }),
  ).toHaveAttribute('href', `/grupos/${firstGroup.value}`);

  // Filter by the line with the most products so that there is a second page.
  const line = [...all.facets.lines].sort((a, b) => b.count - a.count)[0]!;
  expect(line.count).toBeGreaterThan(9);
  await related.getByRole('checkbox', { name: new RegExp(`^${line.label}`) }).check();
  await expect(page).toHaveURL(
    new RegExp(`linea=${encodeURIComponent(line.value).replace(/%20/g, '(\\+|%20)')}`),
  );
  await expect(page.getByText(`${line.count} productos`, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: `Quitar filtro Línea: ${line.value}` })).toBeVisible();

  const pager = page.getByRole('navigation', { name: 'Paginación' });
  await pager.getByRole('link', { name: 'Siguiente' }).click();
  await expect(page).toHaveURL(/pagina=2/);
  await expect(pager.getByText('Página 2')).toHaveAttribute('aria-current', 'page');
  // The new page starts at the top of the list, not down at the paginator.
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeLessThan(300);
  const filtered = await api<List>(
    request,
    `/api/products?brand=Metrion&line=${encodeURIComponent(line.value)}&page=2`,
  );
  await expect(cards(page).first()).toContainText(filtered.items[0]!.name);

  // The last card of the page: the product screen must open at the top (scroll to top on navigation).
  const last = filtered.items.length - 1;
  const target = filtered.items[last]!;
  await cards(page).nth(last).getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/productos/${target.code}$`));
  await expect(page.getByRole('heading', { level: 1, name: target.name })).toBeVisible();
  await expect(page).toHaveTitle(`${target.code} | Metrion`);
  await expect(page.getByRole('navigation', { name: 'Ruta de navegación' })).toContainText(
    `Inicio›${target.name}`,
  );
  await expect(page.getByText(/^\$[\d,]+\.\d{2} MXN$/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Marca Metrion' })).toHaveAttribute('href', '/marcas/Metrion');
  await expect(page.getByTestId('add-to-cart')).toBeVisible();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);

  await page.goBack();
  await expect(page).toHaveURL(/\/marcas\/Metrion\?.*pagina=2/);
  await expect(page.getByRole('checkbox', { name: new RegExp(`^${line.label}`) }).first()).toBeChecked();
  await expect(cards(page).nth(last)).toContainText(target.name);
});

test('a link with filters reproduces the view; OR within a facet, AND across facets', async ({
  page,
  request,
}) => {
  const base = await api<List>(request, '/api/products?group=VID');
  const [b1, b2] = base.facets.brands;
  const type = base.facets.types[0]!;
  const q = `marca=${b1!.value}&marca=${b2!.value}&tipo=${encodeURIComponent(type.value)}`;
  const expected = await api<List>(
    request,
    `/api/products?group=VID&brand=${b1!.value}&brand=${b2!.value}&type=${encodeURIComponent(type.value)}`,
  );
  await page.goto(`/grupos/VID?${q}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Material de vidrio' })).toBeVisible();
  // '1 producto' or 'N productos': the count is the demo catalogue's (its families, decision 021).
  await expect(page.getByText(new RegExp(`^${expected.total} productos?$`))).toBeVisible();
  const panel = page.getByRole('complementary', { name: 'Filtros' });
  await expect(panel.getByRole('checkbox', { name: new RegExp(`^${b1!.label}`) })).toBeChecked();
  await expect(panel.getByRole('checkbox', { name: new RegExp(`^${b2!.label}`) })).toBeChecked();
  for (const card of await cards(page).all()) {
    await expect(card).toContainText(new RegExp(`${b1!.value}|${b2!.value}`, 'i'));
  }
  // The group page links each related brand to its own page.
  await expect(panel.getByRole('link', { name: `Ver todos los productos de ${b1!.label}` })).toHaveAttribute(
    'href',
    `/marcas/${b1!.value}`,
  );
  await page.getByRole('button', { name: 'Limpiar filtros' }).first().click();
  await expect(page).toHaveURL(/\/grupos\/VID$/);
  await expect(page.getByText(`${base.total} productos`, { exact: true })).toBeVisible();
});

test('sorting by price orders the cards and resets the page', async ({ page }) => {
  await page.goto('/grupos/EQU?pagina=2');
  await page.getByLabel('Ordenar por').selectOption({ label: 'Precio: menor a mayor' });
  await expect(page).toHaveURL(/\/grupos\/EQU\?orden=precio_asc$/);
  // While the next order loads the previous cards stay on screen, marked busy.
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(cards(page)).toHaveCount(9);
  let asc: number[] = [];
  await expect(async () => {
    asc = await Promise.all((await cards(page).all()).map(priceOf));
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
  }).toPass();

  await page.getByLabel('Ordenar por').selectOption({ label: 'Precio: mayor a menor' });
  await expect(page).toHaveURL(/orden=precio_desc/);
  await expect(async () => {
    const desc = await Promise.all((await cards(page).all()).map(priceOf));
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    expect(desc[0]).toBeGreaterThan(asc[8]!);
  }).toPass();
  await expect(page.getByText(/^\$[\d,]+\.\d{2} mxn$/).first()).toBeVisible();
});

test('a search with a typo finds balanzas; its filters lead to the category and the brand', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Buscar productos' }).first().fill('balansa');
  await page.getByRole('combobox', { name: 'Buscar productos' }).first().press('Enter');
  await expect(page).toHaveURL(/\/busqueda\/balansa$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Resultados de búsqueda por BALANSA');
  await expect(page.getByText(/^Se encontraron \d+ resultados$/)).toBeVisible();
  await expect(cards(page).first()).toContainText(/Balanza/);
  const panel = page.getByRole('complementary', { name: 'Filtros' });
  await expect(panel.getByRole('link', { name: /^Balanzas \d+$/ })).toHaveAttribute('href', /^\/grupos\//);
  await expect(panel.getByRole('link', { name: /^Ver todos los productos de / }).first()).toHaveAttribute(
    'href',
    /^\/marcas\//,
  );
  await panel.getByRole('link', { name: /^Balanzas \d+$/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Balanzas' })).toBeVisible();
});

test('a search without results says so', async ({ page }) => {
  await page.goto('/busqueda/zzqxwv');
  await expect(page.getByText('Se encontraron 0 resultados')).toBeVisible();
  await expect(page.getByText('Sin resultados para «zzqxwv».')).toBeVisible();
});

test('unknown brand, group and product say so; a page past the last goes to the last page', async ({
  page,
}) => {
  await page.goto('/marcas/NoExiste');
  await expect(page.getByRole('heading', { name: 'Marca no encontrada' })).toBeVisible();
  await page.goto('/grupos/NOEXISTE');
  await expect(page.getByRole('heading', { name: 'Categoría no encontrada' })).toBeVisible();
  await page.goto('/productos/NO-EXISTE-123');
  await expect(page.getByRole('heading', { name: 'Producto no encontrado' })).toBeVisible();

  // Past the last page: the last page (decision 018), not 'Mostrando 186–186 de 186' over nothing.
  await page.goto('/marcas/Metrion?pagina=99');
  await expect(page).toHaveURL(/\/marcas\/Metrion(\?pagina=\d+)?$/);
  expect(Number(new URL(page.url()).searchParams.get('pagina') ?? '1')).toBeLessThan(99);
  await expect(cards(page).first()).toBeVisible();
  // The cards shown are the ones the range says, and the range ends at the total (a last page of one card is
  // 'Mostrando 41–41 de 41' with its card, not the range over nothing).
  const text = (await page.getByText(/Mostrando \d+–\d+ de \d+/).textContent()) ?? '';
  const range = /Mostrando (\d+)–(\d+) de (\d+)/.exec(text);
  const [from, to, total] = range!.slice(1).map(Number);
  expect(to).toBe(total);
  await expect(cards(page)).toHaveCount(to! - from! + 1);
});

test('a brand URL in other letter case goes to the brand', async ({ page }) => {
  await page.goto('/marcas/metrion');
  await expect(page).toHaveURL(/\/marcas\/Metrion$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Metrion' })).toBeVisible();
});

test('product detail: technical specs with the sanitized HTML and the embedded PDF', async ({
  page,
  request,
}) => {
  const p = await findProduct(request, (d) => d.longDescHtml !== '' && d.datasheetUrl !== null, true);
  await page.goto(`/productos/${p.code}`);
  await expect(page.getByRole('heading', { name: 'Especificaciones Técnicas' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Características' })).toHaveAttribute('aria-selected', 'true');
  const panel = page.getByRole('tabpanel');
  await expect(panel.getByRole('heading', { name: 'Acerca de' })).toBeVisible();
  await expect(panel.getByRole('list').first()).toBeVisible();
  const frame = panel.locator('iframe');
  await expect(frame).toHaveAttribute('src', p.datasheetUrl!);
  const pdf = await request.get(p.datasheetUrl!);
  expect(pdf.headers()['content-type']).toBe('application/pdf');

  const plain = await findProduct(request, (d) => d.longDescHtml === '' && d.datasheetUrl === null, true);
  await page.goto(`/productos/${plain.code}`);
  await expect(page.getByRole('heading', { level: 1, name: plain.name })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Especificaciones Técnicas' })).toHaveCount(0);
});

test('product detail: "Sin imagen", stock texts and the category link', async ({ page, request }) => {
  const noImage = await findProduct(request, (p) => p.imageUrl === null);
  await page.goto(`/productos/${noImage.code}`);
  await expect(page.getByText('Sin imagen')).toBeVisible();

  const soldOut = await findProduct(request, (p) => p.stock === 0);
  await page.goto(`/productos/${soldOut.code}`);
  await expect(page.getByText('Sin inventario', { exact: true })).toBeVisible();

  const one = await findProduct(request, (p) => p.stock === 1);
  await page.goto(`/productos/${one.code}`);
  await expect(page.getByText('1 disponible', { exact: true })).toBeVisible();

  const many = await findProduct(request, (p) => p.stock > 1 && p.stock < 1000 && p.imageUrl !== null);
  await page.goto(`/productos/${many.code}`);
  await expect(page.getByText(`${many.stock} disponibles`, { exact: true })).toBeVisible();
  const img = page.getByRole('img', { name: many.name });
  await expect(img).toHaveAttribute('srcset', /&w=160 160w, .*&w=320 320w, .*&w=640 640w/);
  await expect(img).toHaveAttribute('loading', 'eager');
  const detail = await api<{ groupClas: string; groupName: string }>(request, `/api/products/${many.code}`);
  await page.getByRole('link', { name: detail.groupName, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/grupos/${detail.groupClas}$`));
  await expect(page.getByRole('heading', { level: 1, name: detail.groupName })).toBeVisible();
});

test('list cards have sized, lazy images below the first row and "Sin imagen" otherwise', async ({
  page,
}) => {
  await page.goto('/marcas/Cristalux');
  await expect(cards(page)).toHaveCount(9);
  const imgs = page.getByTestId('product-card').locator('img');
  const n = await imgs.count();
  expect(n).toBeGreaterThan(0);
  for (let i = 0; i < n; i++) {
    const img = imgs.nth(i);
    await expect(img).toHaveAttribute('width', '320');
    await expect(img).toHaveAttribute('height', '320');
    await expect(img).toHaveAttribute('srcset', /\/api\/products\/[^/]+\/image\?v=\w+&w=160 160w/);
  }
  await expect(cards(page).nth(8).locator('img')).toHaveAttribute('loading', 'lazy');
  await expect(cards(page).first().locator('img')).toHaveAttribute('loading', 'eager');
  await expect(page.getByTestId('product-card').getByText('Sin imagen').first()).toBeVisible();
  const src = await imgs.first().getAttribute('src');
  const res = await page.request.get(src!, { headers: { Accept: 'image/webp,*/*' } });
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('image/webp');
});

test('a network failure on the product shows "Error de conexión" after the retries', async ({ page }) => {
  test.setTimeout(40_000);
  // The first load is server-rendered: the failure can only happen when the browser asks, i.e. when the
  // shopper goes to the product from another page once it has hydrated (the account links appear then).
  await page.goto('/busqueda/CRX-10000');
  await expect(page.getByRole('link', { name: 'Ingresar' })).toBeVisible();
  let calls = 0;
  await page.route('**/api/products/CRX-10000', (route) => {
    calls++;
    return route.abort('internetdisconnected');
  });
  await page.getByTestId('product-card').first().getByRole('link').first().click();
  await expect(page.getByRole('status').getByText('Cargando producto…')).toBeAttached();
  await expect(page.getByRole('alert')).toHaveText('Error de conexión', { timeout: 20_000 });
  expect(calls).toBe(4);
});

test('the mobile filter drawer opens, filters and closes', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/grupos/VID');
  await expect(page.getByRole('complementary', { name: 'Filtros' })).toBeHidden();
  await page.getByRole('button', { name: 'Filtros' }).click();
  const drawer = page.getByRole('dialog', { name: 'Filtros' });
  await expect(drawer).toBeVisible();
  await drawer.getByRole('checkbox').first().check();
  await expect(page).toHaveURL(/marca=/);
  await drawer.getByRole('button', { name: 'Cerrar filtros' }).click();
  await expect(drawer).toBeHidden();
  await expect(page.getByRole('button', { name: 'Filtros (1)' })).toBeVisible();

  await page.getByRole('button', { name: 'Filtros (1)' }).click();
  await expect(drawer).toBeVisible();
  await drawer.getByRole('button', { name: /^Ver \d+ productos?$/ }).click();
  await expect(drawer).toBeHidden();
  await page.getByRole('button', { name: 'Filtros (1)' }).click();
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  // Nothing overflows sideways on a phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('/?payment_failed=1 shows "Error de pago" with a way home', async ({ page }) => {
  await page.goto('/?payment_failed=1');
  await expect(page.getByRole('heading', { name: 'Error de pago' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Enfocados en la excelencia' })).toHaveCount(0);
  await expect(
    page.getByRole('main').getByRole('link', { name: 'ventas@ciencia-occidente.mx' }),
  ).toBeVisible();
  await page.getByRole('link', { name: 'Volver al inicio' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Enfocados en la excelencia' })).toBeVisible();
});
