import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  productWithStock,
  type Shopper,
} from '../../../tests/server/support/checkout.ts';
import { createStaff, outbox } from '../../../tests/server/support/staff.ts';
import { JOBS } from '../jobs.ts';
import { MAX_WAITING_PER_EMAIL } from './service.ts';

/**
 * Issue 35, 'Avísame cuando haya': a buyer leaves an e-mail on a product without stock; when stock comes back
 * (here a staff adjustment) the jobs round queues one mail through the outbox, with a link that unsubscribes
 * without signing in. One subscription per address and product; an address that unsubscribed is not subscribed
 * again by someone else.
 */
let t: CheckoutTestApp;
let staff: Shopper;
beforeAll(async () => {
  t = await createCheckoutApp();
  staff = await createStaff(t);
});
afterAll(() => t.close());

const subscribe = (body: Record<string, unknown>, who?: Shopper) =>
  t.app.inject({
    method: 'POST',
    url: '/api/stock-alerts',
    payload: body,
    ...(who ? { headers: { cookie: who.cookie } } : {}),
  });
const alertsOf = async (email: string) =>
  (
    await t.db.execute<{ product_code: string; notified: boolean; unsubscribed: boolean }>(
      sql`select product_code, notified_at is not null as notified, unsubscribed_at is not null as unsubscribed
          from stock_alerts where email = ${email} order by id`,
    )
  ).rows;
const mailsTo = async (email: string) => (await outbox(t, 'stock-alert')).filter((m) => m.to === email);
const restock = (code: string, delta: number) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/products/${encodeURIComponent(code)}/stock`,
    headers: { cookie: staff.cookie },
    payload: { delta, reason: 'Recepción de mercancía' },
  });

describe('back-in-stock alerts', () => {
  it('one mail when stock comes back, none while there is none, never twice; the link unsubscribes without signing in', async () => {
    const p = await productWithStock(t, 0, 0);
    const email = `avisame.${Date.now()}@example.mx`;
    const first = await subscribe({ code: p.code, email: email.toUpperCase() });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().message).toMatch(/una sola vez/);
    expect((await subscribe({ code: p.code, email })).statusCode).toBe(200);
    expect(await alertsOf(email)).toEqual([{ product_code: p.code, notified: false, unsubscribed: false }]);

    expect(await t.app.jobs.runOnce(JOBS.stockAlerts)).toBe('done');
    expect(await mailsTo(email)).toEqual([]);

    expect((await restock(p.code, 5)).statusCode).toBe(200);
    await t.app.jobs.runOnce(JOBS.stockAlerts);
    await t.app.jobs.runOnce(JOBS.stockAlerts);
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain(`Ya hay existencia de ${p.name}`);
    expect(mails[0]!.text).toContain(`/productos/${encodeURIComponent(p.code)}`);

    const token = /\/avisos\/baja\?t=([A-Za-z0-9_-]+)/.exec(mails[0]!.text)![1]!;
    // Opening the link (or a mail scanner doing so) changes nothing: it shows the button.
    const opened = await t.app.inject({ url: `/avisos/baja?t=${token}` });
    expect(opened.statusCode).toBe(200);
    expect(opened.body).toContain('Darme de baja');
    expect((await alertsOf(email))[0]!.unsubscribed).toBe(false);
    const done = await t.app.inject({
      method: 'POST',
      url: '/avisos/baja',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `t=${token}`,
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain(`no le enviaremos más avisos de existencia a ${email}`);
    expect((await alertsOf(email))[0]!.unsubscribed).toBe(true);

    // Someone else cannot subscribe that address again; a wrong token is a 404 that changes nothing.
    expect((await restock(p.code, -5)).statusCode).toBe(200);
    const again = await subscribe({ code: p.code, email });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('opted_out');
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/avisos/baja',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `t=${'x'.repeat(32)}`,
    });
    expect(wrong.statusCode).toBe(404);
  });

  it('a signed-in buyer subscribes with their account’s address; a product with stock is refused', async () => {
    const shopper = await createShopper(t);
    const empty = await productWithStock(t, 0, 1);
    const full = await productWithStock(t, 3, 2);
    expect((await subscribe({ code: empty.code }, shopper)).statusCode).toBe(200);
    expect(await alertsOf(shopper.email)).toHaveLength(1);
    const inStock = await subscribe({ code: full.code }, shopper);
    expect(inStock.statusCode).toBe(409);
    expect(inStock.json().error.message).toBe('Este producto tiene existencia: puede comprarlo ahora');
    // Not signed in and no address: a 400 saying so.
    const none = await subscribe({ code: empty.code });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.fields.email).toBe('Escriba su correo electrónico');
    expect((await subscribe({ code: 'NO-EXISTE', email: 'a@example.mx' })).statusCode).toBe(404);
  });

  it(`one address waits for at most ${MAX_WAITING_PER_EMAIL} products`, async () => {
    const email = `muchos.${Date.now()}@example.mx`;
    await t.db.execute(sql`insert into products (code, name, price_cents)
      select 'AVISO-' || g, 'Producto agotado ' || g, 10000 from generate_series(1, ${MAX_WAITING_PER_EMAIL}) g
      on conflict do nothing`);
    await t.db.execute(sql`insert into stock_alerts (product_code, email, token_hash)
      select code, ${email}, md5(code || ${email}) from products where code like 'AVISO-%'`);
    expect(await alertsOf(email)).toHaveLength(MAX_WAITING_PER_EMAIL);
    const p = await productWithStock(t, 0, 3);
    const res = await subscribe({ code: p.code, email });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('too_many');
  });
});
