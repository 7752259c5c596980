import { chromium } from 'playwright-core';

const [, , base, out, ...paths] = process.argv;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
for (const [w, h, tag] of [
  [1280, 900, 'desk'],
  [390, 844, 'mob'],
]) {
  const page = await browser.newPage({ viewport: { width: w, height: h } });
  for (const p of paths) {
    const [path, action] = p.split('#');
    await page.goto(base + path, { waitUntil: 'networkidle' });
    if (action === 'menu') {
      if (w > 800) await page.getByRole('button', { name: 'Categorías' }).click();
      else await page.getByRole('button', { name: 'Abrir menú' }).click();
      await page.waitForTimeout(300);
    }
    const name = `${out}/${tag}-${path.replace(/[^a-z0-9]+/gi, '_')}${action ? '-' + action : ''}.png`;
    await page.screenshot({ path: name, fullPage: action ? false : true });
    console.log(name);
  }
  await page.close();
}
await browser.close();
