import { mkdirSync } from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { registerBuyerWithAddress } from './register-helper.ts';

/**
 * Decision 030, a lab buyer's journey with a controlled reagent: the product page and the cart say what it
 * requires; checkout first asks for an RFC on file, then for the end-use declaration; the order is placed once the
 * declared use is written and the declaration accepted.
 */
const shots = process.env.SHOTS_DIR ?? 'test-results/shots-controlled';
mkdirSync(shots, { recursive: true });
const NOTICE = 'Producto controlado: requiere RFC registrado y declaración de uso final';

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `${shots}/desk-${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.locator('body')).toBeVisible();
  await page.screenshot({ path: `${shots}/mob-${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

type Card = { code: string; presentationCount: number };
type Detail = { code: string; name: string; stock: number; controlled: boolean };

/** A controlled reagent of the demo catalogue (the seed flags those the law lists) with stock. */
async function pickControlled(request: APIRequestContext): Promise<Detail> {
  for (const group of ['REA-ACI', 'REA-SOL', 'REA-BAS']) {
    const { items } = (await (await request.get(`/api/products?group=${group}&pageSize=60`)).json()) as {
      items: Card[];
    };
    for (const card of items) {
      const p = (await (
        await request.get(`/api/products/${encodeURIComponent(card.code)}`)
      ).json()) as Detail;
      if (p.controlled && p.stock >= 2) return p;
    }
  }
  throw new Error('the demo catalogue has no controlled reagent with stock');
}

test('a controlled reagent: notice, RFC first, then the end-use declaration, then the order', async ({
  page,
}) => {
  const email = `quimica.${Date.now()}@example.mx`;
  await registerBuyerWithAddress(
    page.request,
    {
      username: email,
      password: 'Bureta#2024x',
      nombre: 'Andrea',
      apellidoPat: 'Ramírez',
      apellidoMat: 'Soto',
      telefono: '3319876543',
    },
    {
      nombreEnvio: 'Laboratorio de Control de Calidad',
      telefonoEnvio: '3319876543',
      cpEnvio: '44100',
      calleEnvio: 'Avenida Vallarta',
      numExtEnvio: '1500',
      numIntEnvio: '',
      coloniaEnvio: 'Americana',
      municipioEnvio: 'Guadalajara',
      ciudadEnvio: 'Guadalajara',
      estadoEnvio: 'Jalisco',
      paisEnvio: 'México',
    },
  );

  const reagent = await pickControlled(page.request);
  await page.goto(`/productos/${encodeURIComponent(reagent.code)}`);
  await expect(page.getByTestId('controlled-notice')).toHaveText(NOTICE);
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  await page.goto('/carrito');
  await expect(page.getByTestId('controlled-notice')).toHaveText(NOTICE);

  // Without an RFC on file: sent to save one first.
  await page.goto('/orden');
  const step = page.getByTestId('controlled-declaration');
  await expect(step).toContainText('Para comprarlos necesitamos su RFC registrado');

  const fiscal = await page.request.post('/api/account/fiscal-profiles', {
    data: {
      rfc: 'LQB150101AB3',
      nombreFiscal: 'Laboratorios Químicos del Bajío',
      regimenFiscal: '601',
      usoCfdi: 'G03',
      cp: '44100',
    },
  });
  expect(fiscal.status(), await fiscal.text()).toBe(201);
  await page.reload();
  await expect(step).toContainText('Se registrará con el RFC LQB150101AB3');
  const use = step.getByLabel('Uso final declarado');
  await use.fill('para el lab');
  await use.blur();
  await expect(step).toContainText('describa en al menos 30 caracteres');
  await page.getByLabel('Nombre del titular').fill('Andrea Ramírez Soto');
  await page.getByLabel('Número de tarjeta').fill('4111111111111111');
  await page.getByLabel('Mes', { exact: true }).fill('12');
  await page.getByLabel('Año').fill(String((new Date().getFullYear() + 2) % 100));
  await page.getByLabel('CVC').fill('123');

  await use.fill(
    'Determinación de acidez total en muestras de agua residual, laboratorio de control de calidad',
  );
  await step.getByRole('checkbox').check();
  await expect(step.getByRole('checkbox')).toBeChecked();
  await shoot(page, 'orden-declaracion');
  await page.getByRole('button', { name: 'Pagar' }).click();
  await expect(page).toHaveURL(/\/resumen\/\d+$/, { timeout: 30_000 });
});
