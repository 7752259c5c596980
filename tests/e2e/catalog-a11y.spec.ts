import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';

/** axe-core with the WCAG 2.1 A and AA rules: zero violations on every catalogue page. */
async function expectNoViolations(page: Page) {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const summary = result.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`,
  );
  expect(summary).toEqual([]);
}

const catalogue = [
  { path: '/', ready: 'Enfocados en la excelencia' },
  { path: '/?payment_failed=1', ready: 'Error de pago' },
  { path: '/todas_las_marcas', ready: 'Nuestras marcas' },
  { path: '/marcas/Cristalux', ready: 'Cristalux' },
  { path: '/marcas/Cristalux?linea=L%C3%ADnea%20Cl%C3%A1sica&pagina=2', ready: 'Cristalux' },
  { path: '/grupos/VID', ready: 'Material de vidrio' },
  { path: '/grupos/EQU-BAL', ready: 'Balanzas' },
  { path: '/busqueda/matraz', ready: 'Resultados de búsqueda por MATRAZ' },
  { path: '/busqueda/zzqxwv', ready: 'Resultados de búsqueda por ZZQXWV' },
  { path: '/productos/CRX-10072', ready: 'Centrífuga' },
  { path: '/productos/CRX-10012', ready: 'Matraz volumétrico' },
  // A reagent: its hazard summary and the 'Seguridad' tab with pictograms and statements (decisions 027, 036).
  { path: '/productos/VLK-10092', ready: 'Ácido clorhídrico' },
  { path: '/productos/NO-EXISTE', ready: 'Producto no encontrado' },
  { path: '/marcas/NoExiste', ready: 'Marca no encontrada' },
];

const statics = [
  '/preguntas_frecuentes',
  '/contacto',
  '/nosotros',
  '/terminos_y_condiciones',
  '/cookies_policy',
  '/politica_de_privacidad',
  '/politica_de_envios',
  '/facturacion',
  '/politica_de_venta',
  '/politica_de_devoluciones',
  '/sucursales',
];

for (const { path, ready } of catalogue) {
  test(`axe: ${path}`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(ready);
    await page.waitForLoadState('networkidle');
    await expectNoViolations(page);
  });
}

for (const path of statics) {
  test(`axe: ${path}`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoViolations(page);
  });
}

test('axe: phone layout (filter drawer open, an FAQ answer open, a product with its PDF button)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/grupos/VID');
  await page.getByRole('button', { name: 'Filtros' }).click();
  await expect(page.getByRole('dialog', { name: 'Filtros' })).toBeVisible();
  await expectNoViolations(page);
  await page.goto('/preguntas_frecuentes');
  await page.locator('summary').first().click();
  await expectNoViolations(page);
  await page.goto('/productos/CRX-10072');
  await expect(page.getByRole('link', { name: 'Ver ficha técnica (PDF)' })).toBeVisible();
  await expectNoViolations(page);
});
