import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
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
import { leaseDurations, useLeaseDurations } from '../db/lease.ts';
import { idempotencyKeys } from '../db/schema.ts';
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
let restoreLeases: () => void;
beforeAll(async () => {
  // A 1 s lease renewed every 200 ms: the same rules as the 10 s one, without waiting 10 s for it to run out.
  restoreLeases = useLeaseDurations({ seconds: 1, heartbeatMs: 200 });
  t = await createCheckoutApp({
    gateway: (db: Db) => {
      gateway = new SlowGateway(db);
      return gateway;
    },
  });
  shopper = await createShopper(t);
  code = (await productWithStock(t, 50, 2)).code;
});
afterAll(async () => {
  await t.close();
  restoreLeases();
});

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
      await new Promise((r) => setTimeout(r, 50));
      res = await placeOrderRequest(t, shopper, body, key);
    }
    expect(res.statusCode).toBe(201);
    expect(Date.now() - died).toBeLessThan((leaseDurations.seconds + 5) * 1000);
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
    // The lease the key had when first seen, then the database's clock past it: the key is still held by the live
    // request, which renewed it.
    const mine = and(eq(idempotencyKeys.userId, shopper.id), eq(idempotencyKeys.key, key));
    let firstLease: string | undefined;
    const seen = Date.now();
    while (!firstLease && Date.now() - seen < 10_000) {
      const [row] = await t.db
        .select({ until: sql<string>`${idempotencyKeys.lockedUntil}::text` })
        .from(idempotencyKeys)
        .where(mine);
      firstLease = row?.until;
      if (!firstLease) await new Promise((r) => setTimeout(r, 20));
    }
    expect(firstLease).toBeDefined();
    const pastFirstLease = async () =>
      (await t.db.execute<{ past: boolean }>(sql`select now() > ${firstLease}::timestamptz as past`)).rows[0]!
        .past;
    await expect.poll(pastFirstLease, { timeout: 10_000, interval: 50 }).toBe(true);
    const retry = await placeOrderRequest(t, shopper, body, key);
    expect(retry.statusCode).toBe(409);
    expect(retry.json().error).toEqual(busy);
    const [held] = await t.db
      .select({ renewed: sql<boolean>`${idempotencyKeys.lockedUntil} > ${firstLease}::timestamptz` })
      .from(idempotencyKeys)
      .where(mine);
    expect(held!.renewed).toBe(true);
    release();
    const answer = await first;
    expect(answer.statusCode).toBe(201);
    const replay = await placeOrderRequest(t, shopper, body, key);
    expect(replay.statusCode).toBe(201);
    expect(replay.json().number).toBe(answer.json().number);
  }, 40_000);
});
