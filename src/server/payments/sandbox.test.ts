import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckoutTestApp, createCheckoutApp } from '../../../tests/server/support/checkout.ts';
import { luhnValid, SandboxGateway } from './sandbox.ts';

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
