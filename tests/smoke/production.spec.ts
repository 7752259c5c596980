import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import pg from 'pg';

/**
 * The production smoke test's journey (scripts/smoke-production.sh, docs/decisions/055): the built server
 * (`node dist/server/main.js`, production dependencies only, NODE_ENV=production, WEB_CONCURRENCY=2, PostgreSQL)
 * behind Caddy over HTTPS, in Chromium. A shopper registers with the code the shop mailed (through SMTP: production
 * has no /dev/correo), buys by card (the sandbox gateway's approving test card), asks for the invoice and downloads
 * its PDF, then buys by SPEI and the transfer arrives: the simulator's page that pays it in development is absent in
 * production, so the test does what Openpay does — the charge completes on the gateway's side (the sandbox's
 * charges live in the shop's database) and the webhook is delivered, with its Basic credentials, through the proxy.
 */

const mailDir = process.env.SMOKE_MAIL_DIR ?? 'test-results/smoke-mail';
const databaseUrl = process.env.SMOKE_DATABASE_URL ?? '';
const webhookUser = process.env.SMOKE_WEBHOOK_USER ?? '';
const webhookPassword = process.env.SMOKE_WEBHOOK_PASSWORD ?? '';
const password = 'Bureta.Graduada2024!';

type Card = { code: string; name: string; stock: number };

/** The Subject header of a raw mail, its RFC 2047 encoded words decoded. */
function subjectOf(raw: string): string {
  const header = /^Subject:(.*(?:\r?\n[ \t].*)*)/im.exec(raw)?.[1] ?? '';
  return header
    .replace(/\r?\n[ \t]/g, ' ')
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    )
    .trim();
}

/** The 6-digit registration code the shop mailed to `to` (its subject ends with it). */
async function mailedCode(to: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      () => {
        for (const file of readdirSync(mailDir).sort().reverse()) {
          const raw = readFileSync(join(mailDir, file), 'utf8');
          const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
          if (!new RegExp(`^To:.*${to.replace(/[.+]/g, '\\$&')}`, 'im').test(head)) continue;
          code = /(\d{6})$/.exec(subjectOf(head))?.[1];
          if (code) return code;
        }
        return undefined;
      },
      { message: `código de registro enviado por SMTP a ${to}`, timeout: 60_000 },
    )
    .toBeTruthy();
  return code!;
}

async function registerWithAddress(request: APIRequestContext, email: string) {
  const person = {
    username: email,
    nombre: 'Mariana',
    apellidoPat: 'Orozco',
    apellidoMat: 'Vázquez',
    telefono: '3314567890',
    password,
  };
  const first = await request.post('/api/auth/register', { data: person });
  expect(first.ok(), await first.text()).toBe(true);
  const code = await mailedCode(email);
  const verified = await request.post('/api/auth/register/verify', { data: { username: email, code } });
  expect(verified.ok(), await verified.text()).toBe(true);
  const address = await request.put('/api/account/shipping-address', {
    data: {
      nombreEnvio: 'Mariana Orozco Vázquez',
      telefonoEnvio: '3314567890',
      cpEnvio: '44160',
      calleEnvio: 'Av. Chapultepec Sur',
      numExtEnvio: '480',
      numIntEnvio: '',
      coloniaEnvio: 'Americana',
      municipioEnvio: 'Guadalajara',
      ciudadEnvio: 'Guadalajara',
      estadoEnvio: 'Jalisco',
    },
  });
  expect(address.ok(), await address.text()).toBe(true);
}

async function productsInStock(request: APIRequestContext): Promise<Card[]> {
  const res = await request.get('/api/products?pageSize=60');
  expect(res.ok()).toBe(true);
  const { items } = (await res.json()) as { items: Card[] };
  const some = items.filter((p) => p.stock >= 5);
  expect(some.length, 'productos con existencia en el catálogo').toBeGreaterThan(1);
  return some;
}

async function checkout(page: Page) {
  await page.goto('/carrito');
  await page.getByRole('button', { name: 'Finalizar compra' }).click();
  await expect(page).toHaveURL(/\/orden$/);
}

const orderNumber = (page: Page) => Number(/\/resumen\/(\d+)$/.exec(page.url())?.[1]);

test('production behind Caddy: register by mailed code → card → invoice PDF → SPEI paid by webhook', async ({
  page,
}) => {
  expect(databaseUrl, 'SMOKE_DATABASE_URL').not.toBe('');
  const email = `humo.${Date.now()}@example.mx`;

  // HTTPS from the proxy, production headers, the built client.
  const home = await page.goto('/');
  expect(home?.status()).toBe(200);
  expect(home?.headers()['strict-transport-security']).toBeTruthy();
  await expect(page.locator('h1').first()).toBeVisible();
  expect((await page.request.get('/dev/correo.json')).status()).toBe(404);
  expect((await page.request.get('/readyz')).ok()).toBe(true);

  await registerWithAddress(page.request, email);
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === '__Host-sid')?.secure).toBe(true);
  const [forCard, forSpei] = await productsInStock(page.request);

  // Card: the product page (server-rendered, hydrated), the cart, the approving sandbox card.
  await page.goto(`/productos/${encodeURIComponent(forCard!.code)}`);
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByText('Producto agregado al carrito').first()).toBeVisible();
  await checkout(page);
  const card = page.getByRole('form', { name: 'Pago con tarjeta' });
  await card.getByLabel('Nombre del titular').fill('Mariana Orozco Vázquez');
  await card.getByLabel('Número de tarjeta').fill('4111111111111111');
  await card.getByLabel('Mes', { exact: true }).fill('12');
  await card.getByLabel('Año').fill(String((new Date().getFullYear() + 2) % 100));
  await card.getByLabel('CVC').fill('123');
  await card.getByRole('button', { name: 'Pagar' }).click();
  await expect(page).toHaveURL(/\/resumen\/\d+$/, { timeout: 60_000 });
  await expect(page.getByRole('heading', { name: '¡Pedido comprado con éxito!' })).toBeVisible();
  const cardOrder = orderNumber(page);

  // The invoice (sandbox PAC: the SAT's test CSD shipped with the built server) and its PDF, through the proxy.
  await page.goto(`/factura/${cardOrder}`);
  const form = page.getByRole('form', { name: 'Datos de facturación' });
  await form.getByLabel('RFC', { exact: true }).fill('LQB150101AB3');
  await form.getByLabel('Nombre fiscal o razón social').fill('Laboratorios Químicos del Bajío');
  await form.getByLabel('Régimen fiscal').selectOption('601');
  await form.getByLabel('Uso del CFDI').selectOption('G03');
  await form.getByLabel('Código postal del domicilio fiscal').fill('44100');
  await form.getByRole('button', { name: 'Solicitar factura' }).click();
  await expect(page.getByText(/Factura generada correctamente/)).toBeVisible({ timeout: 60_000 });
  const issued = page.getByRole('region', { name: 'Factura emitida' });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    issued.getByRole('link', { name: 'Descargar PDF' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const pdf = readFileSync(await download.path());
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  expect(pdf.length).toBeGreaterThan(2_000);

  // SPEI: the reference, then the transfer arrives and Openpay's webhook reaches the shop through the proxy.
  const cart = await page.request.put('/api/cart', {
    data: { items: [{ code: forSpei!.code, quantity: 1 }] },
  });
  expect(cart.ok(), await cart.text()).toBe(true);
  await checkout(page);
  await page.getByRole('radio', { name: /Transferencia SPEI/ }).check();
  await page.getByRole('button', { name: 'Generar referencia de pago' }).click();
  await expect(page).toHaveURL(/\/resumen\/\d+$/, { timeout: 60_000 });
  await expect(page.getByRole('heading', { name: 'Pedido apartado: pendiente de pago' })).toBeVisible();
  await expect(page.getByTestId('payment-instructions').getByTestId('clabe')).toHaveText(/^646180\d{12}$/);
  const speiOrder = orderNumber(page);

  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  let charge: { id: string; order_id: string } | undefined;
  try {
    const found = await db.query<{ id: string; order_id: string }>(
      `update sandbox_charges set status = 'completed', updated_at = now()
        where id = (select charge_id from payments where order_number = $1 and charge_id is not null
                     order by id desc limit 1)
          and status = 'in_progress' and method = 'bank_account'
        returning id, order_id`,
      [speiOrder],
    );
    charge = found.rows[0];
  } finally {
    await db.end();
  }
  expect(charge, `cargo SPEI pendiente del pedido ${speiOrder}`).toBeTruthy();
  const auth = `Basic ${Buffer.from(`${webhookUser}:${webhookPassword}`).toString('base64')}`;
  const event = {
    type: 'charge.succeeded',
    event_date: new Date().toISOString(),
    transaction: { id: charge!.id, order_id: charge!.order_id },
  };
  const refused = await page.request.post('/api/payments/openpay/webhook', { data: event });
  expect(refused.status(), 'el webhook sin credenciales').toBe(401);
  const delivered = await page.request.post('/api/payments/openpay/webhook', {
    data: event,
    headers: { authorization: auth },
  });
  expect(delivered.status(), await delivered.text()).toBe(200);
  await page.reload();
  await expect(page.getByRole('heading', { name: '¡Pedido comprado con éxito!' })).toBeVisible();
  await expect(page.getByTestId('summary-payment-method')).toHaveText('Transferencia SPEI');

  // Both orders paid in the history; the confirmation mails left through SMTP.
  await page.goto('/historial');
  for (const number of [cardOrder, speiOrder]) {
    const order = page.getByTestId('order-card').filter({ hasText: `Pedido #${number}` });
    await expect(order.getByTestId('order-status')).toHaveText('Pagado');
  }
  await expect
    .poll(() => readdirSync(mailDir).length, { message: 'correos enviados por SMTP', timeout: 60_000 })
    .toBeGreaterThanOrEqual(3);
});
