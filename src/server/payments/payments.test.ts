import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenpayReplica } from '../../../tests/server/replicas/openpay.ts';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  placeOrderRequest,
  productWithStock,
} from '../../../tests/server/support/checkout.ts';
import { assertPaymentsAllowed, ConfigError, loadConfig } from '../config.ts';
import {
  GatewayError,
  GatewayUnavailableError,
  isNotRefundable,
  refundableCents,
  refundLanded,
} from './gateway.ts';
import { chargeFromOpenpay, OpenpayGateway } from './openpay.ts';
import { OPENPAY_SCRIPTS, openpayCspOrigins } from './service.ts';

/** A CSP header as directive → sources. */
function parseCsp(header: string): Record<string, string[]> {
  return Object.fromEntries(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

const replica = new OpenpayReplica();
let gateway: OpenpayGateway;
beforeAll(async () => {
  await replica.start();
  gateway = new OpenpayGateway({
    apiUrl: replica.url,
    merchantId: replica.merchantId,
    privateKey: replica.privateKey,
    // Generous: a loaded machine must not turn a normal answer into a timeout (the timeout case has its own).
    timeoutMs: 10_000,
  });
});
afterAll(() => replica.stop());

const input = (token: string, orderId: string) => ({
  token,
  deviceSessionId: 'kR1MiQhz2otdIuUlQkbEyitIqVMiI16f',
  amountCents: 123456,
  orderId,
  description: `Pedido ${orderId}`,
  customer: { name: 'María', lastName: 'López Ruiz', email: 'maria@example.com', phoneNumber: '3312345678' },
  use3dSecure: false,
  redirectUrl: 'http://tienda.test/api/payments/return',
});

describe('Openpay adapter against a local replica of its API', () => {
  it('creates a charge: real path, HTTP Basic with the private key, amount in pesos, order_id', async () => {
    const charge = await gateway.createCharge(input(replica.addToken('4111111111111111'), '5001'));
    expect(charge).toMatchObject({
      status: 'completed',
      amountCents: 123456,
      orderId: '5001',
      redirectUrl: null,
    });
    const request = replica.requests.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe(`/v1/${replica.merchantId}/charges`);
    expect(request.authorization).toBe(`Basic ${Buffer.from(`${replica.privateKey}:`).toString('base64')}`);
    expect(request.body).toMatchObject({
      method: 'card',
      amount: 1234.56,
      currency: 'MXN',
      order_id: '5001',
      device_session_id: 'kR1MiQhz2otdIuUlQkbEyitIqVMiI16f',
      customer: {
        name: 'María',
        last_name: 'López Ruiz',
        phone_number: '3312345678',
        email: 'maria@example.com',
      },
    });
    expect(await gateway.getCharge(charge.id)).toMatchObject({ id: charge.id, status: 'completed' });
    expect((await gateway.findChargeByOrderId('5001'))?.id).toBe(charge.id);
    expect(await gateway.findChargeByOrderId('9999')).toBeNull();
  });

  it('maps error objects: a decline keeps its code and description; a repeated order_id is 409/1006', async () => {
    const declined = await gateway
      .createCharge(input(replica.addToken('4444444444444448'), '5002'))
      .catch((e: unknown) => e);
    expect(declined).toBeInstanceOf(GatewayError);
    expect(declined).toMatchObject({
      errorCode: 3003,
      httpCode: 402,
      category: 'gateway',
      isCardDecline: true,
    });
    expect((declined as GatewayError).requestId).toBeTruthy();

    const duplicate = await gateway
      .createCharge(input(replica.addToken('4111111111111111'), '5001'))
      .catch((e: unknown) => e);
    expect(duplicate).toMatchObject({ errorCode: 1006, httpCode: 409 });
  });

  it('3-D Secure: charge_pending with a redirect URL; after the bank, the charge is completed', async () => {
    const token = replica.addToken('4000000000000044');
    await expect(gateway.createCharge(input(token, '5003'))).rejects.toMatchObject({ errorCode: 3005 });
    // The token of an anti-fraud decline is charged once more with 3-D Secure (and only then redirect_url).
    const pending = await gateway.createCharge({ ...input(token, '5003-3ds'), use3dSecure: true });
    expect(replica.requests.at(-1)!.body).toMatchObject({
      use_3d_secure: true,
      redirect_url: 'http://tienda.test/api/payments/return',
    });
    expect(pending.status).toBe('charge_pending');
    expect(pending.redirectUrl).toMatch(/\/charges\/tr[a-z0-9]+\/redirect\/$/);
    replica.complete3ds(pending.id, true);
    expect((await gateway.getCharge(pending.id)).status).toBe('completed');
  });

  it('refunds in full', async () => {
    const charge = await gateway.createCharge(input(replica.addToken('4111111111111111'), '5004'));
    const refunded = await gateway.refund(charge.id, { description: 'Cancelación' });
    expect(refunded).toMatchObject({ status: 'refunded', refundedCents: 123456 });
    expect(replica.requests.at(-1)!.path).toBe(`/v1/${replica.merchantId}/charges/${charge.id}/refund`);
    await expect(gateway.refund(charge.id, { description: 'otra vez' })).rejects.toBeInstanceOf(GatewayError);
  });

  it('partial refunds add up, as the charge’s refunds list says; more than what is left is 422/1003', async () => {
    const charge = await gateway.createCharge(input(replica.addToken('4111111111111111'), '5010'));
    const first = await gateway.refund(charge.id, { description: 'Frasco roto', amountCents: 23_456 });
    expect(replica.requests.at(-1)!.body).toEqual({ description: 'Frasco roto', amount: 234.56 });
    expect(first).toMatchObject({ status: 'completed', refundedCents: 23_456 });
    expect(first.lastRefund).toMatchObject({
      amountCents: 23_456,
      status: 'completed',
      description: 'Frasco roto',
    });
    const second = await gateway.refund(charge.id, { description: 'Otro', amountCents: 50_000 });
    expect(second).toMatchObject({ status: 'completed', refundedCents: 73_456 });
    expect(refundableCents(second)).toBe(50_000);

    const tooMuch = await gateway
      .refund(charge.id, { description: 'De más', amountCents: 50_001 })
      .catch((e: unknown) => e);
    expect(tooMuch).toMatchObject({ errorCode: 1003, httpCode: 422, isCardDecline: false });
    expect(isNotRefundable(tooMuch)).toBe(true);

    const rest = await gateway.refund(charge.id, { description: 'El resto' });
    expect(replica.requests.at(-1)!.body).toEqual({ description: 'El resto' });
    expect(rest).toMatchObject({ status: 'refunded', refundedCents: 123_456 });
    expect(rest.refunds?.map((r) => r.amountCents)).toEqual([23_456, 50_000, 50_000]);
    // An answer lost after Openpay made the refund: the charge read afterwards tells it happened.
    expect(
      refundLanded(await gateway.getCharge(charge.id), { refundedBeforeCents: 73_456, amountCents: 50_000 }),
    ).toBe(true);
  });

  it('a SPEI or store charge is never refunded through Openpay: 422/1003, recognisable, nothing changes', async () => {
    for (const method of ['spei', 'cash'] as const) {
      const charge = await gateway.createDelayedCharge({
        method,
        amountCents: 80_000,
        orderId: `5011-${method}`,
        description: 'Pedido diferido',
        customer: input('', '').customer,
        dueDate: new Date(Date.now() + 86_400_000),
      });
      replica.payDelayed(charge.id);
      const paid = await gateway.getCharge(charge.id);
      expect(refundableCents(paid)).toBe(0);
      const refused = await gateway.refund(charge.id, { description: 'Devolución' }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(GatewayError);
      expect(refused).toMatchObject({ errorCode: 1003, httpCode: 422, category: 'request' });
      expect(isNotRefundable(refused)).toBe(true);
      expect(await gateway.getCharge(charge.id)).toMatchObject({ status: 'completed', refundedCents: 0 });
    }
    expect(isNotRefundable(new GatewayError('request', 1001, 'x', 400, null))).toBe(false);
    expect(isNotRefundable(new Error('x'))).toBe(false);
  });

  it('reads a documented refund answer that carries only the last `refund` (no list)', () => {
    // Openpay's 'Devolver un cargo' example (open-pay/slate charges.md), trimmed.
    const documented = {
      id: 'tr6cxbcefzatd10guvvw',
      amount: 100.0,
      method: 'card',
      status: 'completed',
      currency: 'MXN',
      order_id: 'oid-00052',
      refund: {
        id: 'trcbsmjkroqmjobxqhpb',
        amount: 40.0,
        status: 'completed',
        description: 'devolucion',
        operation_date: '2014-05-26T13:56:21-05:00',
      },
    };
    const charge = chargeFromOpenpay(documented as Parameters<typeof chargeFromOpenpay>[0]);
    expect(charge).toMatchObject({ refundedCents: 4_000, refunds: null });
    expect(charge.lastRefund).toEqual({
      id: 'trcbsmjkroqmjobxqhpb',
      amountCents: 4_000,
      status: 'completed',
      description: 'devolucion',
      createdAt: '2014-05-26T13:56:21-05:00',
    });
    expect(chargeFromOpenpay({ ...documented, status: 'refunded' } as never).refundedCents).toBe(10_000);
  });

  it('pays out to a CLABE: the documented request, in_progress, then completed or failed as Openpay reports', async () => {
    const payout = await gateway.createPayout({
      amountCents: 10_050,
      clabe: '012298026516924616',
      holderName: 'Laboratorio Clínico del Centro',
      description: 'Devolución del pedido 5010',
      orderId: '5010-devolucion-1',
    });
    const request = replica.requests.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe(`/v1/${replica.merchantId}/payouts`);
    expect(request.body).toEqual({
      method: 'bank_account',
      bank_account: { clabe: '012298026516924616', holder_name: 'Laboratorio Clínico del Centro' },
      amount: 100.5,
      description: 'Devolución del pedido 5010',
      order_id: '5010-devolucion-1',
    });
    expect(payout).toMatchObject({
      status: 'in_progress',
      amountCents: 10_050,
      clabe: '012XXXXXXXXXX24616',
      holderName: 'Laboratorio Clínico del Centro',
      orderId: '5010-devolucion-1',
      errorMessage: null,
    });
    expect(payout.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    replica.settlePayout(payout.id);
    expect(await gateway.getPayout(payout.id)).toMatchObject({ id: payout.id, status: 'completed' });
    expect(replica.requests.at(-1)!.path).toBe(`/v1/${replica.merchantId}/payouts/${payout.id}`);

    const bounced = await gateway.createPayout({
      amountCents: 5_000,
      clabe: '646180109400135624',
      holderName: 'Otro titular',
      description: 'Devolución',
      orderId: '5010-devolucion-2',
    });
    replica.settlePayout(bounced.id, { failed: 'Cuenta inexistente' });
    expect(await gateway.getPayout(bounced.id)).toMatchObject({
      status: 'failed',
      errorMessage: 'Cuenta inexistente',
    });
  });

  it('a payout’s order_id is used once (409/1006) and found again by listing payouts, which has no order_id filter', async () => {
    const sent = {
      amountCents: 2_000,
      clabe: '012298026516924616',
      holderName: 'Laboratorio Clínico del Centro',
      description: 'Devolución',
      orderId: '5012-devolucion-1',
    };
    const since = new Date();
    // Payouts of other orders around it: the listing (order_id is no documented filter) answers them all.
    for (let i = 0; i < 3; i++) await gateway.createPayout({ ...sent, orderId: `5012-otro-${i}` });
    const created = await gateway.createPayout(sent);
    for (let i = 3; i < 6; i++) await gateway.createPayout({ ...sent, orderId: `5012-otro-${i}` });
    await expect(gateway.createPayout(sent)).rejects.toMatchObject({ errorCode: 1006, httpCode: 409 });
    // The order_id of a charge counts too: unique among all transactions.
    await expect(gateway.createPayout({ ...sent, orderId: '5001' })).rejects.toMatchObject({
      errorCode: 1006,
    });

    expect(await gateway.findPayoutByOrderId(sent.orderId, since)).toMatchObject({
      id: created.id,
      amountCents: 2_000,
    });
    const listing = replica.requests.at(-1)!.path;
    expect(listing).toMatch(/^\/v1\/[a-z0-9]+\/payouts\?creation\[gte\]=\d{4}-\d{2}-\d{2}&/);
    expect(await gateway.findPayoutByOrderId('5012-nunca', since)).toBeNull();
  });

  it('a payout the balance cannot cover is 412/4001; a CLABE with a wrong check digit is 400/1001', async () => {
    replica.balanceAdjustment = -replica.balance();
    const sent = {
      amountCents: 100,
      clabe: '012298026516924616',
      holderName: 'Laboratorio',
      description: 'Devolución',
      orderId: '5013-devolucion',
    };
    await expect(gateway.createPayout(sent)).rejects.toMatchObject({ errorCode: 4001, httpCode: 412 });
    replica.balanceAdjustment = 0;
    await expect(gateway.createPayout({ ...sent, clabe: '012298026516924617' })).rejects.toMatchObject({
      errorCode: 1001,
      httpCode: 400,
    });
  });

  it('a wrong key is 401/1002; 5xx and timeouts are "unavailable", not declines', async () => {
    const wrong = new OpenpayGateway({
      apiUrl: replica.url,
      merchantId: replica.merchantId,
      privateKey: 'sk_nope',
    });
    await expect(wrong.getCharge('trx')).rejects.toMatchObject({ errorCode: 1002, httpCode: 401 });
    replica.failNext(503);
    await expect(gateway.getCharge('trx')).rejects.toBeInstanceOf(GatewayUnavailableError);
    const impatient = new OpenpayGateway({
      apiUrl: replica.url,
      merchantId: replica.merchantId,
      privateKey: replica.privateKey,
      timeoutMs: 300,
    });
    replica.delayNextChargeAnswer(5_000);
    await expect(
      impatient.createCharge(input(replica.addToken('4111111111111111'), '5005')),
    ).rejects.toBeInstanceOf(GatewayUnavailableError);
    // …and yet the charge exists: that is why the service asks by order_id before anything else.
    expect((await gateway.findChargeByOrderId('5005'))?.status).toBe('completed');
    const down = new OpenpayGateway({ apiUrl: 'http://127.0.0.1:9', merchantId: 'm1', privateKey: 'sk_1' });
    await expect(down.getCharge('x')).rejects.toBeInstanceOf(GatewayUnavailableError);
  });
});

describe('Openpay configured: card form config, CSP, webhook', () => {
  let t: CheckoutTestApp;
  const hook = { OPENPAY_WEBHOOK_USER: 'openpay', OPENPAY_WEBHOOK_PASSWORD: 'secreto-del-webhook' };
  const basic = `Basic ${Buffer.from('openpay:secreto-del-webhook').toString('base64')}`;
  beforeAll(async () => {
    t = await createCheckoutApp({
      env: {
        PAYMENT_GATEWAY: 'openpay',
        OPENPAY_MERCHANT_ID: replica.merchantId,
        OPENPAY_PRIVATE_KEY: replica.privateKey,
        OPENPAY_PUBLIC_KEY: replica.publicKey,
        OPENPAY_API_URL: replica.url,
        ...hook,
      },
    });
  });
  afterAll(() => t.close());

  it('tells the card form the merchant id and the PUBLIC key only; the CSP allows exactly Openpay’s origins', async () => {
    const res = await t.app.inject('/api/payments/config');
    expect(res.json()).toEqual({
      gateway: 'openpay',
      merchantId: replica.merchantId,
      publicKey: replica.publicKey,
      sandboxMode: true,
    });
    expect(res.body).not.toContain(replica.privateKey);
    // The CSP, parsed: exactly what Openpay.js and openpay-data need (its device fingerprint loads a script,
    // an image and a frame from the API host), and the script URLs the card form loads are allowed.
    const csp = parseCsp(String(res.headers['content-security-policy']));
    const api = 'https://sandbox-api.openpay.mx';
    expect(csp['script-src']).toEqual(["'self'", 'https://js.openpay.mx', api]);
    expect(csp['connect-src']).toEqual(["'self'", api]);
    expect(csp['frame-src']).toEqual(["'self'", api]);
    expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:', api]);
    expect(csp['default-src']).toEqual(["'self'"]);
    const cardForm = readFileSync(
      new URL('../../client/checkout/lib/card-token.ts', import.meta.url),
      'utf8',
    );
    const loaded = [...cardForm.matchAll(/loadScript\('([^']+)'\)/g)].map((m) => m[1]!);
    expect(loaded).toEqual([...OPENPAY_SCRIPTS]);
    for (const url of loaded) expect(csp['script-src']).toContain(new URL(url).origin);
    // Production: the production API host, and no sandbox host.
    const production = loadConfig({
      PAYMENT_GATEWAY: 'openpay',
      OPENPAY_MERCHANT_ID: 'm1',
      OPENPAY_PRIVATE_KEY: 'sk_1',
      OPENPAY_PUBLIC_KEY: 'pk_1',
      OPENPAY_PRODUCTION: 'true',
    });
    expect(openpayCspOrigins(production)).toEqual({
      script: ['https://js.openpay.mx', 'https://api.openpay.mx'],
      api: ['https://api.openpay.mx'],
    });
    expect(openpayCspOrigins(loadConfig({}))).toEqual({ script: [], api: [] });
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/payments/sandbox/tokens', payload: {} })).statusCode,
    ).toBe(404);
  });

  it('webhook: Basic auth required; the verification handshake answers 2xx', async () => {
    const event = {
      type: 'verification',
      event_date: '2024-01-01T00:00:00-06:00',
      verification_code: 'AbC123xY',
    };
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/payments/openpay/webhook',
      payload: event,
    });
    expect(anonymous.statusCode).toBe(401);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/payments/openpay/webhook',
      headers: { authorization: `Basic ${Buffer.from('openpay:otra').toString('base64')}` },
      payload: event,
    });
    expect(wrong.statusCode).toBe(401);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/payments/openpay/webhook',
      headers: { authorization: basic },
      payload: event,
    });
    expect(ok.statusCode).toBe(200);
  });

  it('webhook: the charge is fetched again (the payload is not trusted) and repeated deliveries change nothing', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 5, 0);
    const res = await placeOrderRequest(t, shopper, {
      items: [{ code: p.code, quantity: 1 }],
      cardToken: replica.addToken('4000000000000044'),
      deviceSessionId: 'dev',
    });
    expect(res.statusCode).toBe(200);
    const { number } = res.json() as { number: number };
    const charge = [...replica.charges.values()].find(
      (c) => c.order_id?.startsWith(`${number}-`) && c.status === 'charge_pending',
    )!;

    // A forged "succeeded" while the bank has not authorized: nothing changes.
    const forged = {
      type: 'charge.succeeded',
      transaction: { id: charge.id, status: 'completed', order_id: charge.order_id },
    };
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/payments/openpay/webhook',
        headers: { authorization: basic },
        payload: forged,
      });
    expect((await send()).statusCode).toBe(200);
    const status = async () =>
      (await t.db.execute<{ status: string }>(sql`select status from orders where number = ${number}`))
        .rows[0]!.status;
    expect(await status()).toBe('pending_payment');

    replica.complete3ds(charge.id, true);
    for (let i = 0; i < 3; i++) expect((await send()).statusCode).toBe(200);
    expect(await status()).toBe('paid');
    const mails = (
      await t.db.execute<{ n: number }>(
        sql`select count(*)::int as n from mail_outbox where dedupe_key = ${`order-paid:${number}`}`,
      )
    ).rows;
    expect(Number(mails[0]!.n)).toBe(1);

    replica.failNext(503);
    expect((await send()).statusCode).toBe(503);
  });
});

describe('configuration', () => {
  it('refuses to start the sandbox with NODE_ENV=production unless explicitly allowed', () => {
    const production = (env: Record<string, string> = {}) => ({
      ...loadConfig(env),
      env: 'production' as const,
    });
    expect(() => assertPaymentsAllowed(production())).toThrow(ConfigError);
    expect(() => assertPaymentsAllowed(production())).toThrow(/PAYMENT_GATEWAY/);
    expect(() => assertPaymentsAllowed(production({ PAYMENTS_SANDBOX_IN_PRODUCTION: 'true' }))).not.toThrow();
    expect(() => assertPaymentsAllowed(loadConfig({ NODE_ENV: 'development' }))).not.toThrow();
  });

  it('the stock hold and the per-shopper caps are configurable, checked, the 3-D Secure hold never longer', () => {
    expect(loadConfig({}).payments.hold).toEqual({
      minutes: 30,
      threeDsMinutes: 10,
      maxPendingOrders: 2,
      maxReservedUnits: 500,
      maxUnpaidSharePercent: 50,
    });
    expect(
      loadConfig({ CHECKOUT_HOLD_MINUTES: '5', CHECKOUT_3DS_HOLD_MINUTES: '15' }).payments.hold,
    ).toMatchObject({ minutes: 5, threeDsMinutes: 5 });
    expect(() => loadConfig({ CHECKOUT_HOLD_MINUTES: '0' })).toThrow(/CHECKOUT_HOLD_MINUTES/);
    expect(() => loadConfig({ CHECKOUT_MAX_RESERVED_UNITS: 'mucho' })).toThrow(/CHECKOUT_MAX_RESERVED_UNITS/);
  });

  it('names the missing Openpay variables', () => {
    expect(() => loadConfig({ PAYMENT_GATEWAY: 'openpay' })).toThrow(/OPENPAY_MERCHANT_ID/);
    expect(() => loadConfig({ PAYMENT_GATEWAY: 'paypal' })).toThrow(/PAYMENT_GATEWAY/);
    expect(() => loadConfig({ OPENPAY_PRIVATE_KEY: 'pk_123' })).toThrow(/OPENPAY_PRIVATE_KEY/);
    const c = loadConfig({
      PAYMENT_GATEWAY: 'openpay',
      OPENPAY_MERCHANT_ID: 'm123',
      OPENPAY_PRIVATE_KEY: 'sk_1',
      OPENPAY_PUBLIC_KEY: 'pk_1',
      OPENPAY_PRODUCTION: 'true',
    });
    expect(c.payments.openpay?.apiUrl).toBe('https://api.openpay.mx');
  });
});
