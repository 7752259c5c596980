import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigrationFile } from '../../../tests/server/support/migrations.ts';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  paidOrder,
  productWithStock,
} from '../../../tests/server/support/staff.ts';
import { products } from '../db/schema.ts';

/**
 * Migration 0032's backfill (decision 061): an order shipped with the single guide before shipments existed keeps
 * showing right — its guide becomes shipment 1 with every line, its backordered units counted as received.
 * The database is taken back to before the migration (its objects dropped) and the migration run again.
 */
let t: CheckoutTestApp;
beforeAll(async () => {
  t = await createCheckoutApp();
});
afterAll(() => t.close());

describe('migration 0032 backfill', () => {
  it('turns a guide recorded before shipments into shipment 1 of the whole order', async () => {
    const shopper = await createShopper(t);
    const stocked = await productWithStock(t, 10, 0);
    const later = await productWithStock(t, 0, 1);
    await t.db
      .update(products)
      .set({ backorderable: true, leadMinDays: 5, leadMaxDays: 8 })
      .where(eq(products.code, later.code));
    const shipped = await paidOrder(t, shopper, [
      { code: stocked.code, quantity: 2 },
      { code: later.code, quantity: 3 },
    ]);
    const waiting = await paidOrder(t, shopper, [{ code: stocked.code, quantity: 1 }]);
    await t.db.execute(sql`update orders set status = 'delivered', tracking_guide = 'EST-7788123',
      delivery_provider = 'Estafeta', delivery_date = '2026-12-01', shipped_at = now() where number = ${shipped}`);

    await t.db.execute(
      sql`drop table backorder_allocations, goods_receipts, shipment_lines, shipments cascade`,
    );
    await t.db.execute(sql`alter table order_lines drop constraint order_lines_shipped,
      drop column received_quantity, drop column shipped_quantity, drop column cancelled_quantity, drop column delayed_at`);
    await t.db.execute(sql`alter table orders drop column delivery_method, drop column pickup_branch,
      drop column pickup_code, drop column collected_by_name, drop column collected_by_id, drop column collected_at,
      drop column pickup_reminded_at`);
    await runMigrationFile(t.db, '0032_shipments.sql');

    const mine = (
      await t.app.inject({ url: `/api/orders/${shipped}`, headers: { cookie: shopper.cookie } })
    ).json();
    expect(mine.statusLabel).toBe('Entregado');
    expect(mine.delivery.method).toBe('ground');
    expect(mine.delivery.shipments).toHaveLength(1);
    expect(mine.delivery.shipments[0]).toMatchObject({
      seq: 1,
      carrier: 'other',
      carrierName: 'Estafeta',
      trackingNumber: 'EST-7788123',
      estimatedDelivery: '2026-12-01',
    });
    expect(mine.delivery.shipments[0].deliveredAt).not.toBeNull();
    expect(mine.delivery.shipments[0].lines.map((l: { quantity: number }) => l.quantity).sort()).toEqual([
      2, 3,
    ]);
    expect(
      mine.delivery.lines.every((l: { awaited: number; ready: number }) => l.awaited === 0 && l.ready === 0),
    ).toBe(true);
    // An order not yet shipped has no shipment and everything still to send.
    const other = (
      await t.app.inject({ url: `/api/orders/${waiting}`, headers: { cookie: shopper.cookie } })
    ).json();
    expect(other.delivery.shipments).toEqual([]);
    expect(other.delivery.lines[0]).toMatchObject({ quantity: 1, shipped: 0, ready: 1 });
  });
});
