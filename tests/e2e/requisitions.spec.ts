import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import pg from 'pg';
import { formatMoney } from '../../src/shared/money.ts';
import { ownServerPort } from './own-server.ts';
import { registerThroughApi } from './register-helper.ts';

/**
 * Issue 34, decision 059: a solicitante sends the cart for approval, an aprobador approves it from the mail's
 * link, a comprador places it at the quoted prices; each step mailed. Then a 40-line requisition approved and
 * placed in the browser, timed, and the administrador's trail. Its own server on the local PostgreSQL (its own port,
 * own-server.ts), so the journey can make the
 * institution and its members as rows (the institution screens are another slice) and set each session's
 * «Comprando para».
 */
const port = ownServerPort('requisitions');
const base = `http://127.0.0.1:${port}`;
const adminUrl = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `tienda_e2e_req_${port}_${randomBytes(3).toString('hex')}`;
const dbUrl = adminUrl.replace(/\/[^/]*$/, `/${dbName}`);
const shots = process.env.SHOTS_DIR ?? 'test-results/shots-requisitions';
mkdirSync(shots, { recursive: true });
let server: ChildProcess | undefined;

test.use({ baseURL: base });
test.describe.configure({ mode: 'serial', timeout: 180_000 });

async function sql(query: string, values: unknown[] = [], url = dbUrl) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(query, values)).rows;
  } finally {
    await client.end();
  }
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  await sql(`create database ${dbName}`, [], adminUrl);
  server = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', './scripts/quick-start.mjs', 'src/server/main.ts'],
    {
      stdio: 'inherit',
      env: {
        ...process.env,
        DATABASE_URL: dbUrl,
        NODE_ENV: 'development',
        LOG_LEVEL: 'warn',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: base,
        CHECKOUT_MAX_PENDING_ORDERS: '20',
      },
    },
  );
  for (let i = 0; i < 200; i += 1) {
    if (
      await fetch(`${base}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error('the requisitions journey server did not start');
});

test.afterAll(async () => {
  if (server) {
    const exited = new Promise((r) => server!.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  await sql(`drop database if exists ${dbName}`, [], adminUrl);
});

const ADDRESS = {
  nombreEnvio: 'Coordinación de Compras, CUCEI',
  telefonoEnvio: '3311223344',
  cpEnvio: '44430',
  calleEnvio: 'Boulevard Marcelino García Barragán',
  numExtEnvio: '1421',
  numIntEnvio: 'Edif. A',
  coloniaEnvio: 'Olímpica',
  municipioEnvio: 'Guadalajara',
  ciudadEnvio: 'Guadalajara',
  estadoEnvio: 'Jalisco',
  paisEnvio: 'México',
};

/** A registered, signed-in member in a browser context of their own. */
async function person(browser: Browser, who: string, nombre: string, apellidoPat: string) {
  const context = await browser.newContext({
    baseURL: base,
    locale: 'es-MX',
    viewport: { width: 1280, height: 900 },
  });
  const email = `${who}.${Date.now()}@cucei.example.mx`;
  const res = await registerThroughApi(context.request, {
    username: email,
    password: 'Matraz#2024x',
    nombre,
    apellidoPat,
    apellidoMat: 'Ochoa',
    telefono: '3311223344',
  });
  expect(res.ok(), await res.text()).toBe(true);
  const saved = await context.request.put('/api/account/shipping-address', { data: ADDRESS });
  expect(saved.ok(), await saved.text()).toBe(true);
  const [row] = await sql('select id from users where email = $1', [email]);
  return { context, page: await context.newPage(), email, id: Number(row.id) };
}

type Mail = { kind: string; to: string; subject: string; text: string };
async function mailTo(request: APIRequestContext, to: string, subject: RegExp): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        const { mails } = (await (await request.get('/dev/correo.json')).json()) as { mails: Mail[] };
        found = mails.find((m) => m.to === to && subject.test(m.subject));
        return Boolean(found);
      },
      { message: `correo «${subject}» para ${to}` },
    )
    .toBe(true);
  return found!;
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `${shots}/desk-${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.locator('body')).toBeVisible();
  await page.screenshot({ path: `${shots}/mob-${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('solicitante → aprobador → comprador, with the mails; a 40-line requisition approved and placed, timed', async ({
  browser,
}) => {
  const solicitante = await person(browser, 'solicita', 'Laura', 'Méndez');
  const aprobador = await person(browser, 'aprueba', 'Jorge', 'Ramírez');
  const comprador = await person(browser, 'compra', 'Patricia', 'Lugo');
  const [inst] = await sql(
    `insert into institutions (razon_social, rfc, regimen_fiscal, cp, cost_centre_label, project_label)
     values ('Universidad de Guadalajara, CUCEI', 'UGU250908EF7', '603', '44430', 'Centro de costos', 'Proyecto CONAHCYT')
     returning id`,
  );
  for (const [who, role] of [
    [solicitante, 'solicitante'],
    [aprobador, 'aprobador'],
    [comprador, 'comprador'],
  ] as const) {
    await sql('insert into institution_members (institution_id, user_id, role) values ($1, $2, $3)', [
      inst.id,
      who.id,
      role,
    ]);
    // «Comprando para»: the header's chooser is another slice; the session's choice is set as it would.
    await sql('update sessions set institution_id = $1 where user_id = $2', [inst.id, who.id]);
  }

  const { items } = (await (await solicitante.context.request.get('/api/products?pageSize=60')).json()) as {
    items: { code: string; stock: number }[];
  };
  const inStock = items.filter((p) => p.stock >= 4);
  expect(inStock.length).toBeGreaterThanOrEqual(42);

  // The institution's contract price for the first product (decision 059), today only.
  const [first] = await sql('select price_cents from products where code = $1', [inStock[0]!.code]);
  const contractCents = Math.max(100, Number(first.price_cents) - 5000);
  await sql(
    `insert into institution_prices (institution_id, product_code, price_cents, valid_from, valid_to)
     values ($1, $2, $3, (now() at time zone 'America/Mexico_City')::date, (now() at time zone 'America/Mexico_City')::date)`,
    [inst.id, inStock[0]!.code, contractCents],
  );

  // The solicitante: two products in the cart, «Enviar a aprobación».
  const s = solicitante.page;
  for (const [i, p] of inStock.slice(0, 2).entries()) {
    await s.goto(`/productos/${encodeURIComponent(p.code)}`);
    await s.getByTestId('add-to-cart').click();
    await expect(s.getByTestId('cart-count')).toHaveText(String(i + 1));
  }
  await s.goto('/carrito');
  const contractLine = s.locator(`[data-testid="cart-line"][data-code="${inStock[0]!.code}"]`);
  await expect(contractLine.getByTestId('contract-price')).toHaveText('Precio de contrato de su institución');
  await expect(contractLine.getByTestId('unit-price')).toHaveText(formatMoney(contractCents));
  await s.getByRole('button', { name: 'Enviar a aprobación' }).click();
  await s.getByLabel('Centro de costos').fill('CC-4410 Química');
  await s.getByLabel('Proyecto CONAHCYT').fill('CF-2026-1187');
  await s.getByLabel('Nota para quien aprueba').fill('Reactivos para la práctica 3 de Química Analítica');
  await s.getByRole('button', { name: 'Enviar la requisición' }).click();
  await expect(s).toHaveURL(/\/requisiciones\/\d+$/);
  await expect(s.getByText('Pendiente de aprobación').first()).toBeVisible();
  const folio = (await s.getByRole('heading', { level: 1 }).textContent())!
    .replace('Requisición ', '')
    .trim();
  const total = await s.getByTestId('requisition-total').textContent();
  await expect(s.getByRole('button', { name: /^Aprobar/ })).toHaveCount(0);

  // The aprobador, from the mail's link.
  const toApprove = await mailTo(
    aprobador.context.request,
    aprobador.email,
    new RegExp(`${folio} por aprobar`),
  );
  expect(toApprove.text).toContain('CC-4410 Química');
  const link = toApprove.text.match(/https?:\/\/\S+\/requisiciones\/\d+/)![0];
  const a = aprobador.page;
  await a.goto(new URL(link).pathname);
  await expect(a.getByTestId('requisition-total')).toHaveText(total!);
  await a.getByLabel('Comentario (opcional)').fill('Adelante, con cargo al proyecto.');
  await shoot(a, 'requisicion-por-aprobar');
  await a.getByRole('button', { name: 'Aprobar', exact: true }).click();
  await expect(a.getByText('Aprobada', { exact: true }).first()).toBeVisible();
  await expect(a.getByRole('button', { name: 'Colocar pedido' })).toHaveCount(0);
  await mailTo(solicitante.context.request, solicitante.email, new RegExp(`${folio} aprobada`));

  // The comprador places it at the quoted prices.
  const c = comprador.page;
  await c.goto(new URL(link).pathname);
  await c.getByLabel('Orden de compra (opcional)').fill('OC-CUCEI-2026-0412');
  await c.getByRole('button', { name: 'Colocar pedido' }).click();
  await expect(c.getByText(/Pedido #\d+ colocado a los precios cotizados/)).toBeVisible();
  const placedMail = await mailTo(
    solicitante.context.request,
    solicitante.email,
    new RegExp(`${folio}: pedido #\\d+ colocado`),
  );
  const orderNumber = Number(placedMail.subject.match(/#(\d+)/)![1]);
  const [order] = await sql(
    'select institution_id, total_cents, purchase_order, payment_method from orders where number = $1',
    [orderNumber],
  );
  expect(order).toMatchObject({
    institution_id: inst.id,
    purchase_order: 'OC-CUCEI-2026-0412',
    payment_method: 'spei',
  });
  await expect(c.getByText('Pedido colocado').first()).toBeVisible();
  await expect(c.getByText('«Adelante, con cargo al proyecto.»')).toBeVisible();
  await shoot(c, 'requisicion-colocada');

  // 40 lines, sent through the same route the cart uses; approve and place in the browser, timed.
  const forty = inStock.slice(2, 42).map((p) => ({ code: p.code, quantity: 1 }));
  const sent = await solicitante.context.request.post('/api/requisitions', {
    data: { items: forty, costCentre: 'CC-4410 Química', note: 'Surtido del semestre' },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  const big = (await sent.json()) as { id: number; lineCount: number };
  expect(big.lineCount).toBe(40);
  const started = Date.now();
  await a.goto(`/requisiciones/${big.id}`);
  await a.getByRole('button', { name: 'Aprobar', exact: true }).click();
  await expect(a.getByText('Aprobada', { exact: true }).first()).toBeVisible();
  const approvedAt = Date.now();
  await c.goto(`/requisiciones/${big.id}`);
  await c.getByRole('button', { name: 'Colocar pedido' }).click();
  await expect(c.getByText(/Pedido #\d+ colocado a los precios cotizados/)).toBeVisible();
  const done = Date.now();
  console.log(
    `requisición de 40 líneas: aprobar ${approvedAt - started} ms, colocar ${done - approvedAt} ms, total ${done - started} ms (página abierta → pedido colocado)`,
  );
  await shoot(c, 'requisicion-40-lineas');
  await s.goto('/requisiciones');
  await expect(s.getByText(folio)).toBeVisible();
  await shoot(s, 'requisiciones-lista');
  // The administrador reads the institution's trail.
  const admin = await person(browser, 'administra', 'Rosa', 'Vega');
  await sql('insert into institution_members (institution_id, user_id, role) values ($1, $2, $3)', [
    inst.id,
    admin.id,
    'administrador',
  ]);
  await sql('update sessions set institution_id = $1 where user_id = $2', [inst.id, admin.id]);
  await admin.page.goto('/requisiciones');
  const bitacora = admin.page.getByRole('table').filter({ hasText: 'Quién' });
  await expect(bitacora.getByRole('row')).toHaveCount(1 + 6);
  await expect(bitacora.getByText('Adelante, con cargo al proyecto.')).toBeVisible();
  await shoot(admin.page, 'requisiciones-administrador');
  for (const who of [solicitante, aprobador, comprador, admin]) await who.context.close();
});
