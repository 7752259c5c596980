import { PAYLOADS, SEARCH_PAYLOADS } from './safety-payloads.ts';
import {
  expect,
  expectNothingRan,
  fx,
  shopperPages,
  staffPages,
  test,
  visit,
  watchedContext,
} from './safety-shop.ts';

/**
 * The XSS journeys over every stored payload, with the CSP on or bypassed (then escaping and the sanitizer must
 * hold on their own). Each mode is its own spec file so the two run in parallel workers.
 */
export function xssJourneys(bypassCSP: boolean) {
  const mode = bypassCSP ? 'sin CSP (el escape y el saneador solos)' : 'con la CSP';
  test.describe(`XSS ${mode}`, () => {
    test('the shopper’s pages never run a payload', async ({ browser }) => {
      test.setTimeout(240_000);
      const { context, watch } = await watchedContext(browser, { cookie: fx.cookie, bypassCSP });
      const page = await context.newPage();
      for (const path of shopperPages()) await visit(page, watch, path);

      // Interactions that show more stored text: the receipt dialog, the header search.
      await visit(page, watch, '/historial');
      const receipt = page.getByRole('button', { name: 'Ver recibo' }).first();
      if (await receipt.isVisible()) {
        await receipt.click();
        await expect(page.getByRole('dialog')).toBeVisible();
        await expectNothingRan(page, 'recibo', watch);
      }
      await visit(page, watch, '/');
      for (const term of SEARCH_PAYLOADS.slice(0, 3)) {
        const box = page.getByPlaceholder('Buscar por nombre, código o CAS…').first();
        await box.fill(term);
        await box.press('Enter');
        await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
        await expectNothingRan(page, `búsqueda ${term}`, watch);
      }
      // The stored payloads really are on the pages (as text), so the test looks at the right thing.
      await visit(page, watch, `/productos/${encodeURIComponent(fx.codes[0]!)}`);
      await expect(page.getByRole('heading', { level: 1 })).toContainText(`Matraz 0 ${PAYLOADS[0]}`);
      expect(watch.external, 'peticiones fuera de la tienda').toEqual([]);
      await context.close();
    });

    test('the back office never runs a payload', async ({ browser }) => {
      test.setTimeout(180_000);
      const { context, watch } = await watchedContext(browser, { cookie: fx.staffCookie, bypassCSP });
      const page = await context.newPage();
      for (const path of staffPages()) await visit(page, watch, path);
      expect(watch.external, 'peticiones fuera de la tienda').toEqual([]);
      await context.close();
    });
  });
}
