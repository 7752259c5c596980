import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  placeOrderRequest,
  productWithStock,
  type Shopper,
  sandboxToken,
} from '../../../tests/server/support/checkout.ts';
import type { Db } from '../db/client.ts';
import { LEASE_SECONDS } from '../db/lease.ts';
import type { CreateChargeInput } from '../payments/gateway.ts';
import { SandboxGateway } from '../payments/sandbox.ts';
import { claimKey, requestHash } from './idempotency.ts';

/**
 * Issue 23: after a crash, a retry with the same Idempotency-Key waited up to 2 minutes ('Su pago ya se está
 * procesando'). The holder now renews a short lease while it works: a dead holder's key is taken over within
 * seconds, and a live one (however slow its gateway) keeps it.
 */

/** A sandbox gateway whose next charge waits until released (a slow bank). */
class SlowGateway extends SandboxGateway {
  private gate: Promise<void> | null = null;
  hold(): () => void {
    let open!: () => void;
    this.gate = new Promise<void>((r) => {
      open = r;
    });
    return open;
  }
  override async createCharge(input: CreateChargeInput) {
    const gate = this.gate;
    this.gate = null;
    if (gate) await gate;
    return super.createCharge(input);
  }
}

let t: CheckoutTestApp;
let gateway: SlowGateway;
let shopper: Shopper;
let code: string;
beforeAll(async () => {
  t = await createCheckoutApp({
    gateway: (db: Db) => {
      gateway = new SlowGateway(db);
      return gateway;
    },
  });
  shopper = await createShopper(t);
  code = (await productWithStock(t, 50, 2)).code;
});
afterAll(() => t.close());

const busy = {
  code: 'idempotency_in_progress',
  message: 'Su pago ya se está procesando. Espere un momento.',
};

describe('the Idempotency-Key lease', () => {
  it('a key whose request died is resumed within seconds, not minutes', async () => {
    const body = {
      items: [{ code, quantity: 1 }],
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: 'lease-tests',
    };
    const key = randomUUID();
    // The request that claimed the key died right after (kill -9): nothing renews its lease.
    expect(await claimKey(t.db, shopper.id, key, requestHash(body))).toEqual({ kind: 'new' });
    const died = Date.now();

    let res = await placeOrderRequest(t, shopper, body, key);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual(busy);
    while (res.statusCode === 409 && Date.now() - died < 20_000) {
      await new Promise((r) => setTimeout(r, 250));
      res = await placeOrderRequest(t, shopper, body, key);
    }
    expect(res.statusCode).toBe(201);
    expect(Date.now() - died).toBeLessThan((LEASE_SECONDS + 5) * 1000);
  }, 40_000);

  it('a live request keeps its key past the lease, however slow the gateway', async () => {
    const body = {
      items: [{ code, quantity: 1 }],
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: 'lease-tests',
    };
    const key = randomUUID();
    const release = gateway.hold();
    const first = placeOrderRequest(t, shopper, body, key);
    const started = Date.now();
    // Past the lease (and a heartbeat more): the key is still held by the live request.
    await new Promise((r) => setTimeout(r, (LEASE_SECONDS + 4) * 1000));
    const retry = await placeOrderRequest(t, shopper, body, key);
    expect(retry.statusCode).toBe(409);
    expect(retry.json().error).toEqual(busy);
    expect(Date.now() - started).toBeGreaterThan(LEASE_SECONDS * 1000);
    release();
    const answer = await first;
    expect(answer.statusCode).toBe(201);
    const replay = await placeOrderRequest(t, shopper, body, key);
    expect(replay.statusCode).toBe(201);
    expect(replay.json().number).toBe(answer.json().number);
  }, 40_000);
});
