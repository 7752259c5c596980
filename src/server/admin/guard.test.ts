import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  createStaff,
  type Shopper,
} from '../../../tests/server/support/staff.ts';

let t: CheckoutTestApp;
let shopper: Shopper;
let staff: Shopper;
beforeAll(async () => {
  t = await createCheckoutApp();
  shopper = await createShopper(t);
  staff = await createStaff(t);
});
afterAll(() => t.close());

/** Every /api/admin route the app registered, as its OpenAPI document lists them. */
function adminRoutes(): { method: string; url: string }[] {
  const spec = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
  const list: { method: string; url: string }[] = [];
  for (const [path, methods] of Object.entries(spec.paths)) {
    if (!path.startsWith('/api/admin')) continue;
    for (const method of Object.keys(methods)) {
      list.push({
        method: method.toUpperCase(),
        url: path.replace(/\{number\}/g, '1001').replace(/\{[^}]+\}/g, '1'),
      });
    }
  }
  return list;
}

describe('role check on every admin route', () => {
  it('finds the whole back office in the route table', () => {
    const routes = adminRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(20);
    expect(routes).toContainEqual({ method: 'POST', url: '/api/admin/orders/1001/ship' });
    expect(routes).toContainEqual({ method: 'POST', url: '/api/admin/import' });
  });

  it('answers 401 to a visitor and 403 to a shopper on each of them, changing nothing', async () => {
    for (const route of adminRoutes()) {
      const visitor = await t.app.inject({ method: route.method as 'GET', url: route.url });
      expect(visitor.statusCode, `${route.method} ${route.url} visitante`).toBe(401);
      const customer = await t.app.inject({
        method: route.method as 'GET',
        url: route.url,
        headers: { cookie: shopper.cookie },
      });
      expect(customer.statusCode, `${route.method} ${route.url} cliente`).toBe(403);
      expect(customer.json().error.message).toBe('No tiene permiso para esta acción');
    }
    const [audit] = (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from audit_log`)).rows;
    expect(audit!.n).toBe(0);
  });

  it('lets staff through (a read answers 200)', async () => {
    for (const url of [
      '/api/admin/orders',
      '/api/admin/products',
      '/api/admin/customers',
      '/api/admin/invoices',
      '/api/admin/audit',
    ]) {
      const res = await t.app.inject({ url, headers: { cookie: staff.cookie } });
      expect(res.statusCode, url).toBe(200);
    }
  });

  it('keeps a shopper out even with a crafted body and an expired staff cookie is a visitor', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/products',
      headers: { cookie: shopper.cookie },
      payload: { code: 'HACK-1', name: 'x', groupClas: 'x', price: '1' },
    });
    expect(res.statusCode).toBe(403);
    const bogus = await t.app.inject({
      url: '/api/admin/orders',
      headers: { cookie: `sid=${'A'.repeat(43)}` },
    });
    expect(bogus.statusCode).toBe(401);
  });
});
