import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckoutTestApp, createCheckoutApp, stockOf } from '../../../tests/server/support/checkout.ts';
import { returnPhoto, returnsKit } from '../../../tests/server/support/returns.ts';
import { createStaff, type Shopper } from '../../../tests/server/support/staff.ts';
import { balancesOf } from '../orders/ledger.ts';

/**
 * Returns under real concurrency (PostgreSQL, several connections): a return's steps run under the order's and
 * the return's row locks (returns/machine.ts), a request under the order's lock (returns/request.ts), so two
 * requests at once give one answer and a 409 — never two refunds, twice the stock or more units than were bought.
 */
let t: CheckoutTestApp;
let staff: Shopper;
let kit: ReturnType<typeof returnsKit>;
beforeAll(async () => {
  t = await createCheckoutApp({ postgres: true });
  staff = await createStaff(t);
  kit = returnsKit(t, staff, await returnPhoto());
});
afterAll(() => t.close());

const post: ReturnType<typeof returnsKit>['post'] = (...a) => kit.post(...a);
const ask: ReturnType<typeof returnsKit>['ask'] = (...a) => kit.ask(...a);
const deliveredOrder: ReturnType<typeof returnsKit>['deliveredOrder'] = (...a) => kit.deliveredOrder(...a);

describe('races', () => {
  it('two staff refunding one return at once: one refund, one credit of stock, the other gets 409', async () => {
    const { shopper, product, number } = await deliveredOrder(7, 2);
    const before = await stockOf(t, product.code);
    const rma = (await ask(shopper, number, {})).json().return;
    await post(staff, `/api/admin/returns/${rma.id}/authorize`, {
      instructions: 'Envíela a nuestro almacén.',
    });
    await post(staff, `/api/admin/returns/${rma.id}/receive`, {});
    const body = { lines: [{ lineNo: 1, disposition: 'sellable' }] };
    const answers = await Promise.all([
      post(staff, `/api/admin/returns/${rma.id}/refund`, body),
      post(staff, `/api/admin/returns/${rma.id}/refund`, body),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect((await stockOf(t, product.code)).stock).toBe(before.stock + 2);
    expect((await balancesOf(t.db, number)).refundedCents).toBe(product.priceCents * 2);
  });

  it('authorize and refuse at once: exactly one wins', async () => {
    const { shopper, number } = await deliveredOrder(8, 2);
    const rma = (await ask(shopper, number, {})).json().return;
    const answers = await Promise.all([
      post(staff, `/api/admin/returns/${rma.id}/authorize`, { instructions: 'Envíela a nuestro almacén.' }),
      post(staff, `/api/admin/returns/${rma.id}/refuse`, { reason: 'Fuera de política.' }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
  });

  it('two requests for the same units at once never return more than was bought', async () => {
    const { shopper, number } = await deliveredOrder(9, 2);
    const answers = await Promise.all([ask(shopper, number, {}), ask(shopper, number, {})]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
  });
});
