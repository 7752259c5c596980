import { expect, type Page, test } from '@playwright/test';
import { ownPostgresShop } from './own-server.ts';
import { registerThroughApi } from './register-helper.ts';
import { signInStaff } from './staff-session.ts';

/**
 * Buying on account (issue 34, decision 060) in the browser: a comprador of a verified institution with a credit
 * line places an order «A crédito (30 días)» (confirmed without payment), staff ship it (the invoice PPD is issued)
 * and record the institution's transfer in «Cuentas por cobrar» (the CFDI de pago is stamped), and the buyer's
 * estado de cuenta shows the payment with its CFDI de pago. Institutions have no screens in this branch, so the
 * journey's own server runs on its own PostgreSQL database, where the institution and the membership are written
 * as staff would, on its own port (own-server.ts). SHOTS_DIR=… saves screenshots at 1280 and 390 px.
 */
const STAFF = {
  email: 'cobranza@ciencia-occidente.mx',
  password: 'Cobranza#Credito2026',
  nombre: 'Cobranza',
};
const shop = ownPostgresShop('credit', STAFF);
const { base } = shop;

test.use({ baseURL: base });
test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  await shop.start();
});

test.afterAll(() => shop.stop());

async function shots(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  await page.screenshot({ path: `${dir}/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${dir}/${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('a comprador buys on credit; staff ship and record the transfer; the estado de cuenta shows the CFDI de pago', async ({
  page,
  browser,
}) => {
  const { items } = (await (await page.request.get('/api/products?pageSize=24')).json()) as {
    items: { code: string; stock: number }[];
  };
  const product = items.find((p) => p.stock >= 3)!;
  const email = `compras.${Date.now()}@udg.example.mx`;
  const reg = await registerThroughApi(page.request, {
    username: email,
    nombre: 'Sofía',
    apellidoPat: 'Ramírez',
    apellidoMat: 'Luna',
    telefono: '3312340000',
    password: 'Probeta.Graduada2026!',
  });
  expect(reg.status()).toBeLessThan(300);
  expect(
    (
      await page.request.put('/api/account/shipping-address', {
        data: {
          nombreEnvio: 'Sofía Ramírez Luna',
          telefonoEnvio: '3312340000',
          cpEnvio: '44430',
          calleEnvio: 'Blvd. Marcelino García Barragán',
          numExtEnvio: '1421',
          numIntEnvio: '',
          coloniaEnvio: 'Olímpica',
          municipioEnvio: 'Guadalajara',
          ciudadEnvio: 'Guadalajara',
          estadoEnvio: 'Jalisco',
        },
      })
    ).status(),
  ).toBe(200);
  // The institution, its credit line and the membership, as staff set them up (decision 057's tables).
  const [institution] = await shop.sql(
    `insert into institutions (razon_social, rfc, regimen_fiscal, cp, uso_cfdi, billing_email, credit_limit_cents, credit_days, verified_at)
     values ('Universidad de Guadalajara', 'UGU250101AB1', '603', '44100', 'G03', 'cxp@udg.example.mx', 5000000, 30, now()) returning id`,
  );
  await shop.sql(
    `insert into institution_members (institution_id, user_id, role) select $1, id, 'comprador' from users where email = $2`,
    [institution.id, email],
  );
  await shop.sql(
    `update sessions set institution_id = $1 where user_id = (select id from users where email = $2)`,
    [institution.id, email],
  );

  await page.request.put('/api/cart', { data: { items: [{ code: product.code, quantity: 2 }] } });
  await page.goto('/carrito');
  await page.getByRole('button', { name: 'Finalizar compra' }).click();
  await expect(page).toHaveURL(/\/orden$/);
  const credit = page.getByRole('radio', { name: /A crédito \(30 días\)/ });
  await expect(credit).toBeEnabled();
  await credit.check();
  await shots(page, 'credito-orden');
  await page.getByRole('button', { name: 'Confirmar pedido a crédito' }).click();
  await expect(page).toHaveURL(/\/resumen\/\d+$/, { timeout: 30_000 });
  const number = Number(/\/resumen\/(\d+)$/.exec(page.url())?.[1]);
  await shots(page, 'credito-resumen');

  // Staff ship it (the invoice PPD is issued) and record the transfer in «Cuentas por cobrar».
  const { context, staff } = await signInStaff(browser, base, STAFF);
  for (const [step, data] of [
    ['prepare', undefined],
    ['ship', { trackingGuide: 'EST-55001', deliveryProvider: 'Estafeta', deliveryDate: '2099-01-15' }],
  ] as const) {
    const res = await staff.request.post(`/api/admin/orders/${number}/${step}`, data ? { data } : {});
    expect(res.status(), await res.text()).toBe(200);
  }
  await staff.goto('/admin/cuentas-por-cobrar');
  const row = staff.getByTestId('receivable-row').filter({ hasText: 'Universidad de Guadalajara' });
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: 'Registrar pago' }).click();
  await staff.getByLabel('Referencia bancaria o clave de rastreo SPEI').fill('SPEI 0026112800012345');
  await staff.getByRole('button', { name: 'Saldo completo' }).first().click();
  await shots(staff, 'credito-cuentas-por-cobrar');
  await staff.getByRole('button', { name: 'Registrar pago y emitir CFDI de pago' }).click();
  await expect(staff.getByText('el CFDI de pago se timbró')).toBeVisible({ timeout: 20_000 });
  await context.close();

  await page.goto('/estado-de-cuenta');
  await expect(page.getByRole('heading', { name: 'Estado de cuenta' })).toBeVisible();
  await expect(page.getByText('No hay facturas con saldo pendiente.')).toBeVisible();
  await expect(page.getByRole('cell', { name: 'SPEI 0026112800012345' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'XML' })).toBeVisible();
  await shots(page, 'credito-estado-de-cuenta');
});
