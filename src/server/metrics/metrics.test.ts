import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  placeOrderRequest,
  productWithStock,
  sandboxToken,
} from '../../../tests/server/support/checkout.ts';
import { PacError } from '../invoices/pac/types.ts';
import { JOBS } from '../jobs.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { instrumented } from './adapters.ts';
import { METRICS_FORBIDDEN } from './routes.ts';

/** Issue 38: what an operator scrapes — GET /metrics in Prometheus' text format, closed to other machines. */
const TOKEN = 'token-de-metricas-0123456789';
let t: CheckoutTestApp;
beforeAll(async () => {
  t = await createCheckoutApp({ env: { METRICS_TOKEN: TOKEN } });
});
afterAll(() => t.close());

const scrape = async () => {
  const res = await t.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' });
  expect(res.statusCode).toBe(200);
  return res.body;
};
/** The value of one series, e.g. value(body, 'tienda_queue_size{queue="mail_outbox_pending",kind=""}'). */
const value = (body: string, series: string) => {
  const line = body.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('/metrics', () => {
  it('refuses another machine without the token, in Spanish; the token opens it', async () => {
    const outside = await t.app.inject({ url: '/metrics', remoteAddress: '203.0.113.7' });
    expect(outside.statusCode).toBe(403);
    expect(outside.body).toBe(METRICS_FORBIDDEN);
    const wrong = await t.app.inject({
      url: '/metrics',
      remoteAddress: '203.0.113.7',
      headers: { authorization: 'Bearer otro-token-que-no-es-el-bueno' },
    });
    expect(wrong.statusCode).toBe(403);
    const withToken = await t.app.inject({
      url: '/metrics',
      remoteAddress: '203.0.113.7',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(withToken.statusCode).toBe(200);
    // X-Forwarded-For cannot make a remote client look local.
    const forged = await t.app.inject({
      url: '/metrics',
      remoteAddress: '203.0.113.7',
      headers: { 'x-forwarded-for': '127.0.0.1' },
    });
    expect(forged.statusCode).toBe(403);
  });

  it('answers this machine in Prometheus text format with the metric names operations.md documents', async () => {
    const res = await t.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const name of [
      'tienda_http_request_duration_seconds',
      'tienda_queue_size',
      'tienda_job_last_success_timestamp_seconds',
      'tienda_job_failures_total',
      'tienda_job_interval_seconds',
      'tienda_external_call_duration_seconds',
      'tienda_external_call_errors_total',
    ]) {
      expect(res.body, name).toContain(`# TYPE ${name} `);
    }
    expect(value(res.body, `tienda_job_interval_seconds{job="${JOBS.invoiceFollowUp}"}`)).toBe(900);
  });

  it('a queued mail shows in the outbox gauge; sent, it leaves it', async () => {
    const series = 'tienda_queue_size{queue="mail_outbox_pending",kind=""}';
    const before = value(await scrape(), series)!;
    await enqueueMail(t.db, {
      kind: 'order-paid',
      to: 'metricas@example.com',
      subject: 'Compra realizada',
      html: '<p>x</p>',
      text: 'x',
      attachments: [],
    });
    expect(value(await scrape(), series)).toBe(before + 1);
    await t.app.jobs.runOnce(JOBS.mail);
    const after = await scrape();
    expect(value(after, series)).toBe(0);
    expect(value(after, `tienda_job_last_success_timestamp_seconds{job="${JOBS.mail}"}`)).toBeGreaterThan(
      Date.now() / 1000 - 60,
    );
    expect(value(after, `tienda_job_failures_total{job="${JOBS.mail}"}`)).toBe(0);
  });

  it('times requests by route pattern, never the raw URL, and the gateway calls of a purchase', async () => {
    await t.app.inject({ url: '/api/orders/4321' });
    const shopper = await createShopper(t);
    const product = await productWithStock(t, 5, 1);
    const order = await placeOrderRequest(t, shopper, {
      items: [{ code: product.code, quantity: 1 }],
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: 'metricas',
    });
    expect(order.statusCode, order.body).toBe(201);
    const body = await scrape();
    expect(body).toContain('route="/api/orders/:number"');
    expect(body).not.toContain('/api/orders/4321');
    expect(
      value(
        body,
        'tienda_http_request_duration_seconds_count{method="POST",route="/api/orders",status="201"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(
      value(
        body,
        'tienda_external_call_duration_seconds_count{service="payments_sandbox",operation="createCharge",outcome="ok"}',
      ),
    ).toBeGreaterThanOrEqual(1);
  });

  it('counts an adapter call that failed by its error class, the adapter itself untouched', async () => {
    const pac = {
      name: 'prueba',
      stamp: async (_xml: string): Promise<string> => {
        throw new PacError('El PAC no respondió', '503', true);
      },
    };
    const timed = instrumented('pac_prueba', pac);
    await expect(timed.stamp('<cfdi/>')).rejects.toBeInstanceOf(PacError);
    expect(timed.name).toBe('prueba');
    const body = await scrape();
    expect(
      value(
        body,
        'tienda_external_call_errors_total{service="pac_prueba",operation="stamp",error="PacError"}',
      ),
    ).toBe(1);
    expect(
      value(
        body,
        'tienda_external_call_duration_seconds_count{service="pac_prueba",operation="stamp",outcome="error"}',
      ),
    ).toBe(1);
  });
});
