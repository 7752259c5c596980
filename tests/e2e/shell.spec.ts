import { expect, test } from '@playwright/test';

test('the home page shows the shell and the category menu leads to a group', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('banner').getByText(/Envío a todo México/)).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Principal' });
  await expect(nav.getByRole('link', { name: 'Marcas' })).toHaveAttribute('href', '/todas_las_marcas');
  await expect(page.getByRole('link', { name: 'Crear cuenta' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ingresar' })).toBeVisible();
  await expect(page.getByTestId('cart-count')).toHaveText('0');
  await expect(page.getByRole('link', { name: 'Escríbanos por WhatsApp' })).toHaveAttribute(
    'href',
    /wa\.me\/52/,
  );
  const footer = page.getByRole('contentinfo');
  for (const name of [
    'Facturación',
    'Política de venta',
    'Aviso de privacidad',
    'Sucursales',
    'Preguntas frecuentes',
  ]) {
    await expect(footer.getByRole('link', { name })).toBeVisible();
  }
  await expect(footer).toContainText('© 2023');

  await nav.getByRole('button', { name: 'Categorías' }).click();
  const menu = page.locator('#menu-categorias');
  await expect(menu.getByRole('link', { name: 'Material de vidrio' }).first()).toBeVisible();
  await menu.getByRole('link', { name: 'Reactivos' }).first().hover();
  await menu.getByRole('link', { name: 'Solventes' }).click();
  await expect(page).toHaveURL(/\/grupos\/REA-SOL$/);
});

test('the mobile drawer lists the categories', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await page.getByRole('button', { name: 'Abrir menú' }).click();
  const drawer = page.getByRole('navigation', { name: 'Menú móvil' });
  await drawer.getByText('Microbiología', { exact: true }).click();
  await drawer.getByRole('link', { name: 'Cajas Petri' }).click();
  await expect(page).toHaveURL(/\/grupos\/MIC-PET$/);
  await expect(drawer).toBeHidden();
});

test('the search box goes to /busqueda/{text}', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Buscar productos' }).first().fill('matraz erlenmeyer');
  await page.getByRole('combobox', { name: 'Buscar productos' }).first().press('Enter');
  await expect(page).toHaveURL(/\/busqueda\/matraz%20erlenmeyer$/);
});

test('an unknown path shows "Página no encontrada" with a link home', async ({ page }) => {
  const response = await page.goto('/esto/no/existe');
  // Crawlers get a real 404; the shopper still gets the page with its link home.
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible();
  await page.getByRole('link', { name: 'Volver al inicio' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('sign-in screens hide the header and footer; /ingreso keeps the query', async ({ page }) => {
  await page.goto('/ingreso?redirect=/carrito');
  await expect(page).toHaveURL(/\/ingresar\?redirect=\/carrito$/);
  await expect(page.getByRole('navigation', { name: 'Principal' })).toHaveCount(0);
  await expect(page.getByRole('contentinfo')).toHaveCount(0);
});

test('hashed assets are cached for a year; the page itself is not cached', async ({ request }) => {
  const page = await request.get('/');
  expect(page.headers()['cache-control']).toBe('no-cache');
  const html = await page.text();
  const asset = html.match(/\/assets\/[^"]+\.js/)?.[0];
  expect(asset).toBeTruthy();
  const res = await request.get(asset!);
  expect(res.headers()['cache-control']).toContain('immutable');
  expect(res.headers()['cache-control']).toContain('max-age=31536000');
});
