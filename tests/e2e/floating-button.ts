import { expect, type Locator, type Page } from '@playwright/test';

/**
 * A buyer on a phone scrolls each of `prices` to where the WhatsApp button is (it floats at the bottom right on
 * other pages): none of them may lie under the button.
 */
export async function expectNoPriceUnderWhatsApp(page: Page, prices: Locator): Promise<void> {
  const button = page.getByRole('link', { name: 'Escríbanos por WhatsApp' });
  const all = await prices.all();
  expect(all.length).toBeGreaterThan(0);
  for (const price of all) {
    // Scroll the price to the height of the button (as far as the page scrolls), then measure both.
    const before = (await price.boundingBox())!;
    const at = (await button.boundingBox())!;
    const dy = before.y + before.height / 2 - (at.y + at.height / 2);
    await page.evaluate((by) => window.scrollBy({ top: by, behavior: 'instant' }), dy);
    const a = (await price.boundingBox())!;
    const b = (await button.boundingBox())!;
    const overlap =
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    expect(overlap, `${await price.textContent()} queda bajo el botón de WhatsApp`).toBe(false);
  }
}
