import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckoutTestApp, createCheckoutApp } from '../../../tests/server/support/checkout.ts';
import { type CreatePayoutInput, isNotRefundable, refundableCents, refundLanded } from './gateway.ts';
import { luhnValid, SANDBOX_FAILING_CLABE, SandboxGateway } from './sandbox.ts';

let t: CheckoutTestApp;
beforeAll(async () => {
  t = await createCheckoutApp();
});
afterAll(() => t.close());

const nextYear = String((new Date().getFullYear() + 1) % 100).padStart(2, '0');
const card = (over: Record<string, string> = {}) => ({
  holder_name: 'María López',
  card_number: '4111111111111111',
  expiration_month: '12',
  expiration_year: nextYear,
  cvv2: '123',
  ...over,
});
const tokenize = (payload: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: '/api/payments/sandbox/tokens', payload });

describe('sandbox tokenization (what Openpay.js does in the browser)', () => {
  it('answers a single-use token id for a valid card; the full number is never stored', async () => {
    const res = await tokenize(card());
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.id).toMatch(/^k[a-z0-9]{19}$/);
    expect(body.card.card_number).toBe('411111XXXXXX1111');
  });

  it('checks like Openpay: 2004 Luhn, 2005 expired, 2006 missing CVV, 2009 invalid CVV', async () => {
    const luhn = await tokenize(card({ card_number: '4111111111111112' }));
    expect(luhn.statusCode).toBe(422);
    expect(luhn.json()).toMatchObject({ error_code: 2004, category: 'request', http_code: 422 });
    const expired = await tokenize(card({ expiration_month: '01', expiration_year: '20' }));
    expect(expired.json()).toMatchObject({ error_code: 2005, http_code: 400 });
    expect((await tokenize(card({ cvv2: '' }))).json()).toMatchObject({ error_code: 2006 });
    expect((await tokenize(card({ cvv2: '12' }))).json()).toMatchObject({ error_code: 2009, http_code: 412 });
    expect((await tokenize(card({ expiration_month: '13' }))).json()).toMatchObject({ error_code: 1001 });
  });

  it('answers the gateway and no Openpay keys to the card form', async () => {
    expect((await t.app.inject('/api/payments/config')).json()).toEqual({ gateway: 'sandbox' });
    const csp = String((await t.app.inject('/api/payments/config')).headers['content-security-policy']);
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toContain('openpay');
  });

  it('the 3-D Secure page of an unknown charge is 404; a foreign origin cannot post the decision', async () => {
    expect((await t.app.inject('/api/payments/sandbox/3ds/trnoexiste')).statusCode).toBe(404);
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/payments/sandbox/3ds/trnoexiste/authorize',
      headers: { origin: 'https://malicioso.example', 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(foreign.statusCode).toBe(403);
  });
});

describe('luhnValid', () => {
  it('accepts the test cards and rejects a changed digit', () => {
    for (const n of ['4111111111111111', '4222222222222220', '4000000000000044', '5555555555554444']) {
      expect(luhnValid(n)).toBe(true);
    }
    expect(luhnValid('4111111111111121')).toBe(false);
  });
});

describe('the test cards of Openpay’s sandbox (decision 024)', () => {
  // Written out from Openpay's sources (decision 024), not read from SANDBOX_CARDS.
  const charge = async (number: string, use3dSecure = false) => {
    const gateway = new SandboxGateway(t.db);
    const token = await gateway.createToken(card({ card_number: number }));
    return gateway.createCharge({
      token: token.id,
      deviceSessionId: 'kR1MiQhz2otdIuUlQkbEyitIqVMiI16f',
      amountCents: 12_345,
      orderId: `prueba-${number}-${use3dSecure}`,
      description: 'Tarjeta de prueba',
      customer: { name: 'María', lastName: 'López', email: 'maria@example.mx', phoneNumber: '3312345678' },
      use3dSecure,
      redirectUrl: use3dSecure ? 'http://127.0.0.1/pago/3ds' : '',
    });
  };

  it.each([
    ['4111111111111111', 'completed'],
    ['4242424242424242', 'completed'],
    ['5555555555554444', 'completed'],
  ])('%s is approved', async (number, status) => {
    expect((await charge(number)).status).toBe(status);
  });

  it.each([
    ['4222222222222220', 3001],
    ['4000000000000069', 3002],
    ['4444444444444448', 3003],
    ['4000000000000119', 3004],
    ['4000000000000044', 3005],
  ])('%s is declined with %i', async (number, code) => {
    await expect(charge(number)).rejects.toMatchObject({
      errorCode: code,
      httpCode: 402,
      category: 'gateway',
    });
  });

  it('with use_3d_secure a failing test card goes to the bank’s page, as in Openpay’s sandbox', async () => {
    const pending = await charge('4000000000000044', true);
    expect(pending.status).toBe('charge_pending');
    expect(pending.redirectUrl).toMatch(/^\/api\/payments\/sandbox\/3ds\/tr[a-z0-9]{18}$/);
  });
});

describe('refunds as Openpay makes them (decision 046)', () => {
  const gateway = () => new SandboxGateway(t.db);
  let seq = 0;
  const cardCharge = async (amountCents: number) => {
    const token = await gateway().createToken(card());
    return gateway().createCharge({
      token: token.id,
      deviceSessionId: 'kR1MiQhz2otdIuUlQkbEyitIqVMiI16f',
      amountCents,
      orderId: `reembolso-${++seq}`,
      description: 'Pedido con tarjeta',
      customer: { name: 'María', lastName: 'López', email: 'maria@example.mx', phoneNumber: '3312345678' },
      use3dSecure: false,
      redirectUrl: '',
    });
  };
  const paidDelayed = async (method: 'spei' | 'cash') => {
    const charge = await gateway().createDelayedCharge({
      method,
      amountCents: 50_000,
      orderId: `diferido-${method}-${++seq}`,
      description: 'Pedido pagado después',
      customer: { name: 'María', lastName: 'López', email: 'maria@example.mx', phoneNumber: '3312345678' },
      dueDate: new Date(Date.now() + 86_400_000),
    });
    return (await gateway().simulatePayment(charge.id))!;
  };

  it.each(['spei', 'cash'] as const)(
    'a paid %s charge cannot be refunded: 422/1003, and nothing changes',
    async (method) => {
      const charge = await paidDelayed(method);
      expect(charge.status).toBe('completed');
      expect(refundableCents(charge)).toBe(0);
      const refused = await gateway()
        .refund(charge.id, { description: 'Devolución' })
        .catch((e: unknown) => e);
      expect(refused).toMatchObject({
        category: 'request',
        errorCode: 1003,
        httpCode: 422,
        description: 'Only card charges can be refunded',
      });
      expect(isNotRefundable(refused)).toBe(true);
      expect(await gateway().getCharge(charge.id)).toMatchObject({
        status: 'completed',
        refundedCents: 0,
        refunds: [],
        lastRefund: null,
      });
    },
  );

  it('partial refunds add up to the charge; more than what is left is refused; then the charge is refunded', async () => {
    const charge = await cardCharge(100_000);
    const first = await gateway().refund(charge.id, { description: 'Un frasco roto', amountCents: 25_000 });
    expect(first).toMatchObject({ status: 'completed', refundedCents: 25_000 });
    expect(first.lastRefund).toMatchObject({ amountCents: 25_000, description: 'Un frasco roto' });
    const second = await gateway().refund(charge.id, { description: 'Otro', amountCents: 60_000 });
    expect(second).toMatchObject({ status: 'completed', refundedCents: 85_000 });
    expect(refundableCents(second)).toBe(15_000);

    const tooMuch = await gateway()
      .refund(charge.id, { description: 'De más', amountCents: 15_001 })
      .catch((e: unknown) => e);
    expect(tooMuch).toMatchObject({ errorCode: 1003, httpCode: 422 });
    expect(isNotRefundable(tooMuch)).toBe(true);
    expect((await gateway().getCharge(charge.id)).refundedCents).toBe(85_000);

    // No amount: what is left.
    const rest = await gateway().refund(charge.id, { description: 'El resto' });
    expect(rest).toMatchObject({ status: 'refunded', refundedCents: 100_000 });
    expect(rest.refunds?.map((r) => r.amountCents)).toEqual([25_000, 60_000, 15_000]);
    expect(new Set(rest.refunds?.map((r) => r.id)).size).toBe(3);
    await expect(gateway().refund(charge.id, { description: 'Otra vez' })).rejects.toMatchObject({
      errorCode: 1003,
      description: 'The charge can not be refunded',
    });
    await expect(gateway().refund(charge.id, { description: 'x', amountCents: 0 })).rejects.toMatchObject({
      errorCode: 1003,
    });
  });

  it('two refunds at once never return more than the charge; the lost answer is told by the refunded total', async () => {
    const charge = await cardCharge(100_000);
    const results = await Promise.allSettled([
      gateway().refund(charge.id, { description: 'A', amountCents: 60_000 }),
      gateway().refund(charge.id, { description: 'B', amountCents: 60_000 }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const after = await gateway().getCharge(charge.id);
    expect(after.refundedCents).toBe(60_000);
    expect(refundLanded(after, { refundedBeforeCents: 0, amountCents: 60_000 })).toBe(true);
    expect(refundLanded(after, { refundedBeforeCents: 60_000, amountCents: 40_000 })).toBe(false);
  });
});

describe('payouts to a CLABE (decision 046)', () => {
  const gateway = () => new SandboxGateway(t.db);
  const CLABE = '012298026516924616';
  let seq = 0;
  beforeAll(async () => {
    // Money in the simulated Openpay balance to pay out from.
    const token = await gateway().createToken(card());
    await gateway().createCharge({
      token: token.id,
      deviceSessionId: 'kR1MiQhz2otdIuUlQkbEyitIqVMiI16f',
      amountCents: 1_000_000,
      orderId: 'saldo-para-pagos',
      description: 'Saldo',
      customer: { name: 'María', lastName: 'López', email: 'maria@example.mx', phoneNumber: '3312345678' },
      use3dSecure: false,
      redirectUrl: '',
    });
  });
  const payout = (over: Partial<CreatePayoutInput> = {}) =>
    gateway().createPayout({
      amountCents: 12_345,
      clabe: CLABE,
      holderName: 'Laboratorio Clínico del Centro',
      description: 'Devolución del pedido 1001',
      orderId: `pago-${++seq}`,
      ...over,
    });

  it('starts in_progress with the CLABE masked as Openpay answers it, and is completed on a later read', async () => {
    const created = await payout();
    expect(created).toMatchObject({
      status: 'in_progress',
      amountCents: 12_345,
      clabe: '012XXXXXXXXXX24616',
      holderName: 'Laboratorio Clínico del Centro',
      bankName: 'BBVA México',
      errorCode: null,
      errorMessage: null,
    });
    expect(created.id).toMatch(/^tr[a-z0-9]{18}$/);
    expect(await gateway().getPayout(created.id)).toMatchObject({ id: created.id, status: 'completed' });
  });

  it('the test CLABE always fails after starting in_progress, with the bank’s reason', async () => {
    const created = await payout({ clabe: SANDBOX_FAILING_CLABE });
    expect(created.status).toBe('in_progress');
    expect(await gateway().getPayout(created.id)).toMatchObject({
      status: 'failed',
      errorMessage: 'Cuenta inexistente',
    });
  });

  it('an order_id is used once among all transactions: a repeat is 409/1006 and pays nothing more', async () => {
    const created = await payout({ orderId: 'pago-repetido' });
    await expect(payout({ orderId: 'pago-repetido' })).rejects.toMatchObject({
      errorCode: 1006,
      httpCode: 409,
    });
    await expect(payout({ orderId: 'saldo-para-pagos' })).rejects.toMatchObject({ errorCode: 1006 });
    // After a crash between the request and our record: found by our reference.
    const since = new Date(Date.now() - 60_000);
    expect(await gateway().findPayoutByOrderId('pago-repetido', since)).toMatchObject({
      id: created.id,
      amountCents: 12_345,
    });
    expect(await gateway().findPayoutByOrderId('nunca-enviado', since)).toBeNull();
  });

  it('refuses what Openpay refuses: a CLABE with a wrong check digit (1001), more than the balance (412/4001)', async () => {
    await expect(payout({ clabe: '012298026516924617' })).rejects.toMatchObject({
      errorCode: 1001,
      httpCode: 400,
    });
    await expect(payout({ amountCents: 0 })).rejects.toMatchObject({ errorCode: 1001 });
    await expect(payout({ amountCents: 1_000_000_000_000 })).rejects.toMatchObject({
      errorCode: 4001,
      httpCode: 412,
    });
    await expect(gateway().getPayout('trnoexiste')).rejects.toMatchObject({ errorCode: 1005, httpCode: 404 });
  });
});
