import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';

type Card = { code: string; name: string };
type Detail = {
  code: string;
  name: string;
  casNumber: string | null;
  safety: {
    pictograms: { code: string; alt: string }[];
    signalWord: string | null;
    hazardStatements: { code: string; text: string }[];
  } | null;
  presentations: { code: string }[];
};

/** Hydrochloric acid of the demo catalogue, found by its CAS number as a lab buyer searches. */
async function hydrochloricAcid(request: APIRequestContext): Promise<Detail> {
  const { items } = (await (await request.get('/api/products?q=7647-01-0')).json()) as { items: Card[] };
  const card = items.find((c) => c.name.startsWith('Ácido clorhídrico'));
  expect(card, 'the demo catalogue has hydrochloric acid').toBeDefined();
  return (await (await request.get(`/api/products/${card!.code}`)).json()) as Detail;
}

const tab = (page: Page, name: string) =>
  page.getByRole('tablist', { name: 'Especificaciones' }).getByRole('tab', { name });

test('a reagent’s page: hazard beside the price, the Seguridad tab with pictograms, signal word and H statements', async ({
  page,
  request,
}) => {
  const detail = await hydrochloricAcid(request);
  expect(detail.safety?.pictograms.map((p) => p.code)).toEqual(['GHS05', 'GHS07']);

  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(`/productos/${detail.code}`);
  // Hydrated: the header's account links come from the browser's session request, made after hydration.
  await expect(page.getByRole('link', { name: 'Ingresar' })).toBeVisible();

  // Nobody has to click to see the hazard: the pictograms and the signal word are beside the price.
  const summary = page.getByTestId('hazard-summary');
  await expect(summary.getByRole('img')).toHaveCount(2);
  await expect(summary.getByRole('img', { name: detail.safety!.pictograms[0]!.alt })).toBeVisible();
  await expect(summary.getByText('Peligro', { exact: true })).toBeVisible();
  await expect(tab(page, 'Características')).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('#seguridad')).toBeHidden();

  // The summary's link opens the Seguridad tab and brings it into view, and the address names it.
  await summary.getByRole('link', { name: 'Ver información de seguridad (SGA)' }).click();
  await expect(tab(page, 'Seguridad')).toHaveAttribute('aria-selected', 'true');
  await expect(tab(page, 'Características')).toHaveAttribute('aria-selected', 'false');
  const panel = page.getByRole('tabpanel', { name: 'Seguridad' });
  await expect(panel).toBeInViewport();
  await expect(tab(page, 'Seguridad')).toBeInViewport();
  await expect(page).toHaveURL(/#seguridad$/);

  const pictograms = panel.getByRole('list', { name: 'Pictogramas de peligro (SGA)' }).getByRole('img');
  await expect(pictograms).toHaveCount(2);
  for (const p of detail.safety!.pictograms) {
    const img = panel.getByRole('img', { name: p.alt });
    await expect(img).toBeVisible();
    // The SVG loaded (a broken image has no natural width).
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  }
  await expect(panel.getByText('Peligro', { exact: true })).toBeVisible();
  const hazards = panel.getByRole('list', { name: 'Indicaciones de peligro' }).getByRole('listitem');
  await expect(hazards).toHaveCount(3);
  await expect(hazards.nth(1)).toContainText('H314');
  await expect(hazards.nth(1)).toContainText(
    'Provoca quemaduras graves en la piel y lesiones oculares graves.',
  );
  await expect(panel.getByText(detail.casNumber!, { exact: true })).toBeVisible();
  await expect(panel.getByText('36.46 g/mol')).toBeVisible();

  // WCAG 2.1 A and AA with the tab open.
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);

  // On paper every tab's content is printed, whichever is open.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByTestId('product-documents')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Indicaciones de peligro' })).toBeVisible();
  await page.emulateMedia({ media: 'screen' });

  // A presentation of the family shows the same panel (the base's data), opened from its address.
  const other = detail.presentations.find((p) => p.code !== detail.code);
  if (other) {
    await page.goto(`/productos/${other.code}#seguridad`);
    await expect(
      page
        .getByRole('tabpanel', { name: 'Seguridad' })
        .getByRole('img', { name: detail.safety!.pictograms[0]!.alt }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Ingresar' })).toBeVisible();
    await expect(tab(page, 'Seguridad')).toHaveAttribute('aria-selected', 'true');
    // The server's HTML already showed that panel (CSS :target): hydration moved nothing on the page.
    const shifts = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((list) => {
            resolve(list.getEntries().reduce((sum, e) => sum + (e as unknown as { value: number }).value, 0));
          }).observe({ type: 'layout-shift', buffered: true });
          setTimeout(() => resolve(0), 500);
        }),
    );
    expect(shifts).toBe(0);
  }
  expect(errors.filter((e) => /hydrat/i.test(e))).toEqual([]);
});

test('the tabs by keyboard: arrows, Home and End move the selection and the focus; one tab stop', async ({
  page,
  request,
}) => {
  const detail = await hydrochloricAcid(request);
  await page.goto(`/productos/${detail.code}`);
  await expect(page.getByRole('link', { name: 'Ingresar' })).toBeVisible();
  const first = tab(page, 'Características');
  // Roving tabindex once hydrated: the selected tab is the only stop of the list.
  await expect(first).toHaveAttribute('tabindex', '0');
  await expect(tab(page, 'Seguridad')).toHaveAttribute('tabindex', '-1');
  await first.focus();
  await page.keyboard.press('ArrowRight');
  await expect(tab(page, 'Seguridad')).toBeFocused();
  await expect(tab(page, 'Seguridad')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel', { name: 'Seguridad' })).toBeVisible();
  await expect(page.getByRole('tabpanel', { name: 'Características' })).toBeHidden();
  await page.keyboard.press('End');
  await expect(tab(page, 'Documentos')).toBeFocused();
  await expect(page.getByTestId('product-documents')).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(first).toBeFocused();
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowLeft');
  await expect(tab(page, 'Documentos')).toBeFocused();
  await page.keyboard.press('Home');
  await expect(first).toBeFocused();
  // Tab leaves the list for the open panel.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('tabpanel', { name: 'Características' })).toBeFocused();
  // The address names the open tab, without a new history entry and without scrolling away.
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('ArrowRight');
  await expect(page).toHaveURL(/#seguridad$/);
  await expect(tab(page, 'Seguridad')).toBeInViewport();
});

test('without JavaScript: #seguridad shows the Seguridad tab; with no fragment, the first one', async ({
  browser,
  request,
}) => {
  const detail = await hydrochloricAcid(request);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`/productos/${detail.code}`);
  await expect(page.getByTestId('hazard-summary').getByText('Peligro', { exact: true })).toBeVisible();
  await expect(page.locator('#caracteristicas')).toBeVisible();
  await expect(page.locator('#seguridad')).toBeHidden();
  await expect(page.locator('#documentos')).toBeHidden();

  // The summary's link is a plain link to the fragment: the browser shows the panel it names.
  await page.getByRole('link', { name: 'Ver información de seguridad (SGA)' }).click();
  await expect(page.locator('#seguridad')).toBeVisible();
  await expect(page.locator('#caracteristicas')).toBeHidden();

  await page.goto(`/productos/${detail.code}#seguridad`);
  const panel = page.locator('#seguridad');
  await expect(panel).toBeVisible();
  await expect(panel).toContainText('Provoca quemaduras graves en la piel y lesiones oculares graves.');
  await expect(page.locator('#caracteristicas')).toBeHidden();
  // The tabs are links: the keyboard reaches each of them, and one opens its panel.
  await page.locator('a[href="#documentos"][role="tab"]').click();
  await expect(page.locator('#documentos')).toBeVisible();
  await expect(panel).toBeHidden();
  await context.close();
});
