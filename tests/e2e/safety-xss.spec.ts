import { BOOT_SCRIPT } from '../../src/server/spa/boot-script.ts';
import { PAYLOADS } from './safety-payloads.ts';
import { dangerousDom, expect, test, watchedContext } from './safety-shop.ts';
import { xssJourneys } from './safety-xss-journeys.ts';

/** XSS with the CSP on (and the detector's control): see safety-shop.ts. */

test.describe.configure({ mode: 'serial' });

test('the detector sees a payload that does run (control)', async ({ browser }) => {
  const { context, watch } = await watchedContext(browser, { bypassCSP: true });
  const page = await context.newPage();
  await page.setContent(`<p>x</p>${PAYLOADS[1]}`);
  await page.waitForFunction(() => (window as unknown as { __xss?: unknown }).__xss === 1);
  expect(await page.evaluate(dangerousDom, BOOT_SCRIPT)).toContain('IMG onerror');
  expect(watch.dialogs).toEqual(['1']);
  await context.close();
});

xssJourneys(false);
