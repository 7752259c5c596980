import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, test } from '@playwright/test';

type Detail = {
  code: string;
  name: string;
  presentations: { code: string }[];
  safetySheetUrl: string | null;
  certificates: { lot: string; url: string }[];
  certificateCount: number;
};

/** A presentation (not the base) of a demo reagent whose family has an HDS and certificates of analysis. */
async function pickReagent(request: APIRequestContext): Promise<Detail> {
  for (const group of ['REA-ACI', 'REA-BAS', 'REA-SOL', 'REA-IND']) {
    const { items } = (await (await request.get(`/api/products?group=${group}&pageSize=60`)).json()) as {
      items: { code: string }[];
    };
    for (const card of items) {
      const base = (await (await request.get(`/api/products/${card.code}`)).json()) as Detail;
      if (!base.safetySheetUrl || base.certificateCount === 0) continue;
      const other = base.presentations.find((p) => p.code !== base.code);
      return other ? ((await (await request.get(`/api/products/${other.code}`)).json()) as Detail) : base;
    }
  }
  throw new Error('the demo catalogue has no reagent with an HDS and certificates of analysis');
}

test('a lab buyer downloads the HDS and finds the certificate of analysis of the lot on the bottle', async ({
  page,
  request,
}) => {
  const product = await pickReagent(request);
  const lot = product.certificates[0]!.lot;
  const errors: string[] = [];
  page.on('console', (m) => {
    // The browser reports the 404 of the lot that is not on file, which the page answers in words.
    if (m.location().url.includes('/certificate?lot=XX0000000')) return;
    if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));

  const response = await page.goto(`/productos/${product.code}`);
  // Server-rendered: the documents' tab and its panel are in the first response.
  const html = await response!.text();
  expect(html).toMatch(/<a[^>]*role="tab"[^>]*>Documentos<\/a>/);
  expect(html).toContain(lot);
  // Hydrated: the header's account links come from the browser's session request, made after hydration.
  await expect(page.getByRole('link', { name: 'Ingresar' })).toBeVisible();

  // The documents are the product's 'Documentos' tab (decision 036).
  const documents = page.getByTestId('product-documents');
  await page.getByRole('tab', { name: 'Documentos' }).click();
  await expect(page.getByRole('tab', { name: 'Documentos' })).toHaveAttribute('aria-selected', 'true');
  await expect(documents).toBeVisible();
  const hds = page.waitForEvent('download');
  await documents.getByRole('link', { name: 'Hoja de datos de seguridad (HDS)' }).click();
  const sheet = await hds;
  expect(sheet.suggestedFilename()).toBe(`HDS-${product.code}.pdf`);
  expect(
    readFileSync((await sheet.path())!)
      .subarray(0, 5)
      .toString('latin1'),
  ).toBe('%PDF-');

  // The lots listed, then a search: a number that is not on file, and the bottle's, typed in lower case.
  await expect(documents.getByRole('row', { name: new RegExp(lot) })).toBeVisible();
  const field = documents.getByLabel('Buscar certificado por número de lote');
  await field.fill('XX0000000');
  await documents.getByRole('button', { name: 'Buscar' }).click();
  await expect(documents.getByRole('alert')).toHaveText(
    'No encontramos un certificado de análisis del lote «XX0000000» para este producto. Revise el número en la etiqueta del frasco o escríbanos para solicitarlo.',
  );
  await field.fill(lot.toLowerCase());
  await documents.getByRole('button', { name: 'Buscar' }).click();
  const link = documents.getByRole('link', { name: 'Descargar certificado de análisis (PDF)' });
  await expect(link).toBeVisible();
  await expect(documents.getByRole('alert')).toHaveCount(0);
  const coa = page.waitForEvent('download');
  await link.click();
  const certificate = await coa;
  expect(certificate.suggestedFilename()).toBe(`CoA-${product.code}-${lot.replace(/[^\w.-]/g, '_')}.pdf`);
  expect(
    readFileSync((await certificate.path())!)
      .subarray(0, 5)
      .toString('latin1'),
  ).toBe('%PDF-');

  // WCAG 2.1 A and AA on the tab's content, with the search's answer shown (as the catalogue's pages are checked).
  const axe = await new AxeBuilder({ page })
    .include('[data-testid="product-documents"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
  expect(errors).toEqual([]);
});
