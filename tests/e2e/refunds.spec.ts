import { randomUUID } from 'node:crypto';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { clabeCheckDigit } from '../../src/shared/clabe.ts';
import { formatMoney } from '../../src/shared/money.ts';
import { sandboxCardToken } from './card-helper.ts';
import { ownShop } from './own-server.ts';
import { registerThroughApi } from './register-helper.ts';
import { signInStaff as signInAs } from './staff-session.ts';

/**
 * Money back by the way it came (decisions 045 and 046), in the browser: a buyer pays by SPEI (the sandbox's
 * development page delivers the webhook Openpay would), cancels, and reads that the money is owed to a CLABE they
 * must give; a CLABE with a wrong check digit is refused with the shared message, a right one names its bank.
 * Staff find the refund in 'Reembolsos pendientes', pay it by an Openpay payout from the order's screen; the
 * sandbox executes the payout on its next read (the server's refund sweeper reads it every few seconds), and the
 * buyer's order and mail then say where the money went.
 *
 * Staff accounts are made with `npm run staff:create` before the server opens the embedded database, so this
 * journey starts its own server like admin.spec.ts, on its own port (own-server.ts; the workers' servers
 * take + 0 and + 1). SHOTS_DIR=… saves screenshots of the screens at 1280 and 390 px.
 */
const STAFF = { email: 'caja@ciencia-occidente.mx', password: 'Caja#Reembolsos2025', nombre: 'Caja' };
const shop = ownShop('refunds', STAFF);
const { base } = shop;

test.use({ baseURL: base });
test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  await shop.start();
});

test.afterAll(() => shop.stop());

async function shots(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  const size = page.viewportSize() ?? { width: 1280, height: 900 };
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `${dir}/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${dir}/${name}-390.png`, fullPage: true });
  await page.setViewportSize(size);
}

/** A CLABE with Banxico's check digit: Banorte (072), plaza 320, an account number of our own. */
const account = `07232000${String(Date.now()).slice(-9)}`;
const GOOD_CLABE = `${account}${clabeCheckDigit(account)}`;
const BAD_CLABE = `${account}${(clabeCheckDigit(account) + 1) % 10}`;
const LAST4 = GOOD_CLABE.slice(-4);

/**
 * A buyer with SPEI orders (one unless `orders` says more) placed through the API; paid on the sandbox's development
 * page unless `pay` is false.
 */
async function buyerWithSpeiOrder(page: Page, { pay = true, orders = 1 } = {}) {
  const { items } = (await (await page.request.get('/api/products?pageSize=60')).json()) as {
    items: { code: string; stock: number }[];
  };
  const product = items.find((p) => p.stock >= 3);
  if (!product) throw new Error('the demo catalogue has no product in stock');
  const email = `reembolso.${Date.now()}@example.mx`;
  const reg = await registerThroughApi(page.request, {
    username: email,
    nombre: 'Marta',
    apellidoPat: 'Gutiérrez',
    apellidoMat: 'Solís',
    telefono: '3312345678',
    password: 'Matraz.Erlenmeyer2024!',
  });
  expect(reg.status()).toBeLessThan(300);
  const address = await page.request.put('/api/account/shipping-address', {
    data: {
      nombreEnvio: 'Marta Gutiérrez Solís',
      telefonoEnvio: '3312345678',
      cpEnvio: '44160',
      calleEnvio: 'Av. Chapultepec',
      numExtEnvio: '480',
      numIntEnvio: '',
      coloniaEnvio: 'Obrera',
      municipioEnvio: 'Guadalajara',
      ciudadEnvio: 'Guadalajara',
      estadoEnvio: 'Jalisco',
    },
  });
  expect(address.status()).toBe(200);
  const numbers: number[] = [];
  for (let i = 0; i < orders; i++) {
    const placed = await page.request.post('/api/orders', {
      headers: { 'Idempotency-Key': randomUUID() },
      data: { items: [{ code: product.code, quantity: 1 }], paymentMethod: 'spei' },
    });
    expect(placed.status(), await placed.text()).toBe(202);
    numbers.push(((await placed.json()) as { number: number }).number);
  }
  const number = numbers[0]!;
  if (!pay) return { email, number, numbers, code: product.code, amount: '' };

  await page.goto('/api/payments/sandbox/pagos');
  await page
    .locator('tr')
    .filter({ hasText: `${number}-` })
    .getByRole('button', { name: 'Simular pago recibido' })
    .click();
  await expect(page).toHaveURL(new RegExp(`/resumen/${number}$`));
  await expect(page.getByRole('heading', { name: '¡Pedido comprado con éxito!' })).toBeVisible();
  const order = (await (await page.request.get(`/api/orders/${number}`)).json()) as { totalCents: number };
  return { email, number, numbers, code: product.code, amount: formatMoney(order.totalCents) };
}

const signInStaff = (browser: Browser) => signInAs(browser, base, STAFF);

test('SPEI order cancelled: the buyer gives a CLABE, staff pay it by Openpay payout, the buyer reads where the money went', async ({
  page,
  browser,
}) => {
  const { email, number, amount } = await buyerWithSpeiOrder(page);

  // The cancel confirmation names the real route: a transfer to a CLABE, not "the card".
  await page.goto('/historial');
  const card = page.getByTestId('order-card').filter({ hasText: `Pedido #${number}` });
  await expect(card.getByTestId('order-status')).toHaveText('Pagado');
  await card.getByRole('button', { name: 'Cancelar pedido' }).click();
  const dialog = page.getByRole('dialog', { name: `Pedido #${number}` });
  await expect(dialog.getByTestId('cancel-refund-route')).toHaveText(
    `Le devolveremos ${amount} por transferencia SPEI a la cuenta CLABE que nos indique en «Mis pedidos».`,
  );
  await expect(dialog).not.toContainText('tarjeta');
  await dialog.getByRole('button', { name: 'Cancelar pedido' }).click();
  await expect(page.getByText(`Pedido #${number} cancelado. Le devolveremos ${amount}`)).toBeVisible();

  // The refund is owed and the card asks for the account.
  await expect(card.getByTestId('order-status')).toHaveText('Cancelado');
  const refund = card.getByTestId('refund');
  await expect(refund.getByTestId('refund-state')).toHaveText('Reembolso pendiente');
  await expect(refund.getByTestId('refund-sentence')).toHaveText(
    `Le devolveremos ${amount} por transferencia SPEI a la cuenta CLABE que nos indique en «Mis pedidos».`,
  );
  const form = card.getByRole('form', { name: 'Cuenta para su reembolso' });
  await expect(form).toBeVisible();
  await shots(page, 'historial-cuenta-reembolso');

  // A CLABE with a wrong check digit: the shared message under the field, no bank named.
  const clabe = form.getByLabel('CLABE (18 dígitos)');
  await clabe.fill(BAD_CLABE);
  await form.getByLabel('Titular de la cuenta').fill('Marta Gutiérrez Solís');
  await form.getByRole('button', { name: 'Guardar cuenta' }).click();
  await expect(form.getByText('El dígito verificador de la CLABE no es válido')).toBeVisible();
  await expect(clabe).toHaveAttribute('aria-invalid', 'true');
  await expect(clabe).toHaveAccessibleDescription('El dígito verificador de la CLABE no es válido');
  await shots(page, 'historial-clabe-invalida');

  // The right one: its bank is named as it is typed, and the server's answer says where the money goes.
  await clabe.fill(GOOD_CLABE);
  await expect(form.getByTestId('clabe-bank')).toHaveText('Banco: Banorte');
  await form.getByRole('button', { name: 'Guardar cuenta' }).click();
  const owedSentence = `Le devolveremos ${amount} por transferencia SPEI a su cuenta CLABE terminada en ${LAST4}.`;
  await expect(refund.getByTestId('refund-sentence')).toHaveText(owedSentence);
  await expect(form).toHaveCount(0);
  await expect(refund.getByTestId('refund-state')).toHaveText('Reembolso pendiente');

  // The receipt tells the same.
  await card.getByRole('button', { name: 'Ver recibo' }).click();
  const receipt = page.getByRole('dialog', { name: 'Recibo de compra' });
  await expect(receipt.getByTestId('refund-sentence')).toHaveText(owedSentence);
  await shots(page, 'recibo-reembolso-pendiente');
  await receipt.getByRole('button', { name: /Cerrar/ }).click();

  // Staff: the queue lists it (oldest first), with the CLABE's ending; the order screen pays it.
  const { context, staff } = await signInStaff(browser);
  await staff
    .getByRole('navigation', { name: 'Secciones' })
    .getByRole('link', { name: 'Reembolsos pendientes' })
    .click();
  await expect(staff.getByRole('heading', { name: 'Reembolsos pendientes' })).toBeVisible();
  const row = staff.getByTestId('refund-row').filter({ hasText: `#${number}` });
  await expect(row).toContainText(email);
  await expect(row).toContainText(amount);
  await expect(row).toContainText(`CLABE …${LAST4}`);
  await expect(row.getByTestId('refund-state')).toHaveText('Reembolso pendiente');
  await shots(staff, 'admin-reembolsos-pendientes');

  await row.getByRole('link', { name: `#${number}` }).click();
  await expect(staff.getByRole('heading', { name: `Pedido #${number}` })).toBeVisible();
  const money = staff.getByTestId('order-money');
  await expect(money.getByRole('heading', { name: 'Dinero del pedido' })).toBeVisible();
  await expect(money.getByTestId('balance-paid')).toHaveText(amount);
  await expect(money.getByTestId('balance-due')).toHaveText(amount);
  const owed = money.getByTestId('admin-refund');
  await expect(owed.getByTestId('refund-account')).toHaveText(
    `CLABE terminada en ${LAST4} · Marta Gutiérrez Solís`,
  );
  await shots(staff, 'admin-pedido-dinero');
  await owed.getByRole('button', { name: 'Pagar por Openpay' }).click();
  await owed.getByRole('button', { name: 'Confirmar pago' }).click();
  await expect(
    staff.getByText(new RegExp(`Openpay (recibió el pago|transfirió) de ${amount.replace('$', '\\$')}`)),
  ).toBeVisible();

  // The sandbox executes the payout on its next read, which the server's sweeper makes within seconds: the page
  // is read again until the refund is done (bounded), never after a fixed sleep.
  await expect(async () => {
    await staff.reload();
    await expect(owed.getByTestId('refund-state')).toHaveText('Reembolsado', { timeout: 2_000 });
  }).toPass({ timeout: 45_000, intervals: [1_000, 2_000, 3_000] });
  await expect(money.getByTestId('balance-refunded')).toHaveText(amount);
  await expect(money.getByTestId('balance-due')).toHaveText('$0.00');
  await expect(money.getByTestId('balance-kept')).toHaveText('$0.00');
  await shots(staff, 'admin-pedido-reembolsado');
  await staff
    .getByRole('navigation', { name: 'Secciones' })
    .getByRole('link', { name: 'Reembolsos pendientes' })
    .click();
  await expect(staff.getByTestId('refund-row').filter({ hasText: `#${number}` })).toHaveCount(0);
  await context.close();

  // The buyer's order and mail say where the money went.
  const doneSentence = `Le transferimos ${amount} a su cuenta CLABE terminada en ${LAST4}.`;
  await page.goto('/historial');
  await expect(refund.getByTestId('refund-state')).toHaveText('Reembolsado');
  await expect(refund.getByTestId('refund-sentence')).toHaveText(doneSentence);
  await shots(page, 'historial-reembolsado');
  const mails = (await (await page.request.get('/dev/correo.json')).json()) as {
    mails: { to: string; subject: string; text: string }[];
  };
  const refundMails = mails.mails.filter(
    (m) => m.to.toLowerCase() === email && m.subject === `Reembolso del pedido #${number}`,
  );
  // Plain-text mail may wrap long lines.
  expect(refundMails.map((m) => m.text.replace(/\s+/g, ' ')).join('\n')).toContain(doneSentence);
});

test('card order: staff refund part of it in pesos, the buyer reads it went to the card and the cancel names the card', async ({
  page,
  browser,
}) => {
  const { items } = (await (await page.request.get('/api/products?pageSize=60')).json()) as {
    items: { code: string; stock: number }[];
  };
  const product = items.find((p) => p.stock >= 3);
  if (!product) throw new Error('the demo catalogue has no product in stock');
  const reg = await registerThroughApi(page.request, {
    username: `parcial.${Date.now()}@example.mx`,
    nombre: 'Jorge',
    apellidoPat: 'Ramírez',
    apellidoMat: 'Luna',
    telefono: '3319876543',
    password: 'Probeta.Graduada2024!',
  });
  expect(reg.status()).toBeLessThan(300);
  const address = await page.request.put('/api/account/shipping-address', {
    data: {
      nombreEnvio: 'Jorge Ramírez Luna',
      telefonoEnvio: '3319876543',
      cpEnvio: '45040',
      calleEnvio: 'Av. Guadalupe',
      numExtEnvio: '6400',
      numIntEnvio: '',
      coloniaEnvio: 'Chapalita Inn',
      municipioEnvio: 'Zapopan',
      ciudadEnvio: 'Zapopan',
      estadoEnvio: 'Jalisco',
    },
  });
  expect(address.status()).toBe(200);
  const token = await sandboxCardToken(page.request, 'Jorge Ramírez');
  const placed = await page.request.post('/api/orders', {
    headers: { 'Idempotency-Key': randomUUID() },
    data: {
      items: [{ code: product.code, quantity: 1 }],
      cardToken: token,
      deviceSessionId: 'refunds-journey',
    },
  });
  expect(placed.status()).toBe(201);
  const number = ((await placed.json()) as { number: number }).number;
  const { totalCents } = (await (await page.request.get(`/api/orders/${number}`)).json()) as {
    totalCents: number;
  };

  // Staff type pesos; the form sends exact centavos (250.50 → 25050) and the server answers the route.
  const { context, staff } = await signInStaff(browser);
  await staff.goto(`/admin/pedidos/${number}`);
  const money = staff.getByTestId('order-money');
  await money.getByRole('button', { name: 'Reembolso parcial' }).click();
  const form = money.getByRole('form', { name: 'Reembolso parcial' });
  await expect(form).toContainText('Se reembolsa en el momento a la tarjeta del cliente por Openpay.');
  await form.getByLabel('Importe (pesos, IVA incluido)').fill('250,5x');
  await form.getByLabel('Motivo del reembolso').fill('Un matraz llegó despostillado');
  await form.getByRole('button', { name: 'Reembolsar' }).click();
  await expect(form.getByText('Escriba el importe en pesos, por ejemplo 250.00')).toBeVisible();
  await form.getByLabel('Importe (pesos, IVA incluido)').fill('250.50');
  await shots(staff, 'admin-reembolso-parcial');
  await form.getByRole('button', { name: 'Reembolsar' }).click();
  await expect(staff.getByText('Se reembolsaron $250.50 a la tarjeta del cliente.')).toBeVisible();
  await expect(money.getByTestId('balance-refunded')).toHaveText('$250.50');
  await expect(money.getByTestId('balance-kept')).toHaveText(formatMoney(totalCents - 25_050));
  await expect(money.getByTestId('admin-refund').getByTestId('refund-state')).toHaveText('Reembolsado');
  await context.close();

  // The buyer reads where it went, and a cancellation now offers what is left, to the card.
  await page.goto('/historial');
  const card = page.getByTestId('order-card').filter({ hasText: `Pedido #${number}` });
  await expect(card.getByTestId('refund-sentence')).toHaveText(
    'Reembolsamos $250.50 a la tarjeta con la que pagó.',
  );
  await card.getByRole('button', { name: 'Cancelar pedido' }).click();
  await expect(
    page.getByRole('dialog', { name: `Pedido #${number}` }).getByTestId('cancel-refund-route'),
  ).toHaveText(`Reembolsaremos ${formatMoney(totalCents - 25_050)} a la tarjeta con la que pagó.`);
});

test('unpaid SPEI orders: staff see the units they hold per product and release one with a reason; the buyer cancels the other from its summary (issue 37)', async ({
  page,
  browser,
}) => {
  const { numbers, code } = await buyerWithSpeiOrder(page, { pay: false, orders: 2 });
  const [released, abandoned] = numbers as [number, number];
  const stockOf = async () =>
    ((await (await page.request.get(`/api/products/${code}`)).json()) as { stock: number }).stock;
  const held = await stockOf();

  const { context, staff } = await signInStaff(browser);
  await staff.goto('/admin/pagos-diferidos');
  const row = staff.getByTestId('unpaid-hold-row').filter({ hasText: code });
  await expect(row).toContainText(`#${released}`);
  await expect(row).toContainText(`#${abandoned}`);
  await shots(staff, 'admin-apartados');
  await row.getByRole('link', { name: `#${released}` }).click();
  await expect(staff).toHaveURL(new RegExp(`/admin/pedidos/${released}$`));
  await staff.getByRole('button', { name: 'Liberar existencias…' }).click();
  const form = staff.getByRole('form', { name: 'Liberar existencias' });
  await form.getByRole('button', { name: 'Confirmar y liberar existencias' }).click();
  await expect(
    form.getByText('Escriba el motivo para liberar el pedido (al menos 5 caracteres)'),
  ).toBeVisible();
  await form.getByLabel('Motivo').fill('El cliente avisó que no pagará');
  await form.getByRole('button', { name: 'Confirmar y liberar existencias' }).click();
  await expect(staff.getByText(`Pedido #${released} cancelado y sus existencias liberadas`)).toBeVisible();
  await staff.goto('/admin/pagos-diferidos');
  await expect(staff.getByTestId('unpaid-hold-row').filter({ hasText: code })).not.toContainText(
    `#${released}`,
  );
  await context.close();
  expect(await stockOf()).toBe(held + 1);

  // The buyer will not pay the other one: from its summary, asked once, the reference stops counting.
  await page.goto(`/resumen/${abandoned}`);
  await expect(page.getByRole('heading', { name: 'Pedido apartado: pendiente de pago' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancelar el pedido' }).click();
  await shots(page, 'resumen-cancelar-sin-pagar');
  await page.getByRole('button', { name: 'No, lo voy a pagar' }).click();
  await expect(page.getByRole('button', { name: 'Sí, cancelar el pedido' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Cancelar el pedido' }).click();
  await page.getByRole('button', { name: 'Sí, cancelar el pedido' }).click();
  await expect(page.getByRole('heading', { name: 'Pedido cancelado' })).toBeVisible();
  await expect(page.getByTestId('payment-instructions')).toHaveCount(0);
  expect(await stockOf()).toBe(held + 2);
});
