import { expect, test } from '@playwright/test';

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
};

test('a reagent’s page shows its Seguridad panel: pictograms, signal word, H statements with their official texts', async ({
  page,
  request,
}) => {
  // Hydrochloric acid of the demo catalogue, found by its CAS number as a lab buyer searches.
  const { items } = (await (await request.get('/api/products?q=7647-01-0')).json()) as { items: Card[] };
  const card = items.find((c) => c.name.startsWith('Ácido clorhídrico'));
  expect(card, 'the demo catalogue has hydrochloric acid').toBeDefined();
  const detail = (await (await request.get(`/api/products/${card!.code}`)).json()) as Detail;
  expect(detail.safety?.pictograms.map((p) => p.code)).toEqual(['GHS05', 'GHS07']);

  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(`/productos/${card!.code}`);
  await page.getByRole('link', { name: 'Ver información de seguridad (SGA)' }).click();
  const panel = page.locator('#seguridad');
  await expect(panel.getByRole('heading', { level: 2, name: 'Seguridad' })).toBeInViewport();

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

  // A presentation of the family shows the same panel (the base's data).
  const res = await request.get(`/api/products/${card!.code}`);
  const family = (await res.json()) as { presentations: { code: string }[] };
  const other = family.presentations.find((p) => p.code !== card!.code);
  if (other) {
    await page.goto(`/productos/${other.code}`);
    await expect(
      page.locator('#seguridad').getByRole('img', { name: detail.safety!.pictograms[0]!.alt }),
    ).toBeVisible();
  }
  expect(errors.filter((e) => /hydrat/i.test(e))).toEqual([]);
});
