import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createStaff,
  type Shopper,
} from '../../../tests/server/support/staff.ts';

/** /api/admin/audit filtered by actor, action, entity and days in Mexico City (issue 36). */
let t: CheckoutTestApp;
let admin: Shopper;
beforeAll(async () => {
  t = await createCheckoutApp();
  admin = await createStaff(t);
  // Three actions: two by Laura on 2026-03-10 and 2026-03-11 (Mexico City), one by Pedro at 23:30 on the 11th there
  // (05:30 UTC on the 12th).
  await t.db.execute(sql`insert into audit_log (actor_user_id, actor_label, action, entity_type, entity_id, created_at) values
    (null, 'laura@ciencia.mx', 'order.ship', 'order', '1001', '2026-03-10T18:00:00Z'),
    (null, 'laura@ciencia.mx', 'product.update', 'product', 'RE-1', '2026-03-11T18:00:00Z'),
    (null, 'pedro@ciencia.mx', 'order.ship', 'order', '1002', '2026-03-12T05:30:00Z')`);
});
afterAll(() => t.close());

const audit = async (query: string) => {
  const res = await t.app.inject({ url: `/api/admin/audit?${query}`, headers: { cookie: admin.cookie } });
  return { status: res.statusCode, body: res.json() };
};
const ids = (body: { items: { entityId: string }[] }) => body.items.map((i) => i.entityId);

describe('the audit log filters', () => {
  it('by actor (part of the e-mail, any case), action, entity and days in Mexico City', async () => {
    expect(ids((await audit('actor=LAURA')).body)).toEqual(['RE-1', '1001']);
    expect(ids((await audit('action=order.ship')).body)).toEqual(['1002', '1001']);
    expect(ids((await audit('entityType=order&entityId=1002')).body)).toEqual(['1002']);
    // 05:30 UTC on the 12th is still the 11th in Mexico City.
    expect(ids((await audit('from=2026-03-11&to=2026-03-11')).body)).toEqual(['1002', 'RE-1']);
    expect(ids((await audit('from=2026-03-12')).body)).toEqual([]);
    expect(ids((await audit('actor=laura&action=order.ship&to=2026-03-10')).body)).toEqual(['1001']);
    expect((await audit('actor=%25')).body.total).toBe(0);
  });

  it('refuses an impossible day or a range backwards, in Spanish', async () => {
    const bad = await audit('from=2026-02-30');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('Fecha inicial inválida');
    const backwards = await audit('from=2026-03-12&to=2026-03-10');
    expect(backwards.status).toBe(400);
    expect(JSON.stringify(backwards.body)).toContain('La fecha inicial debe ser anterior a la final');
  });
});
