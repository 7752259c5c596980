import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REPLICA_PASSWORD,
  REPLICA_USER,
  type SwReplica,
  startSwReplica,
} from '../../../tests/server/replicas/sw-sapien.ts';
import { testCsd } from '../../../tests/server/support/cfdi-sample.ts';
import {
  createTestOrder,
  createTestShopper,
  type TestShopper,
} from '../../../tests/server/support/invoice-orders.ts';
import { createTestApp, type TestApp } from '../../../tests/server/support/test-app.ts';
import type { InvoiceState } from '../../shared/schemas/invoice.ts';
import { invoices, mailOutbox } from '../db/schema.ts';

/** The whole invoice flow with CFDI_PAC=sw, against the local replica of SW sapien's API. */
let replica: SwReplica;
let t: TestApp;
let shopper: TestShopper;

const form = {
  nombreFiscal: 'Gómez Díaz Eduardo',
  rfc: 'GODE561231GR8',
  regimenFiscal: '626',
  usoCfdi: 'G03',
  formaPago: '28',
  cp: '06600',
};

beforeAll(async () => {
  replica = await startSwReplica(testCsd());
  t = await createTestApp({
    config: {
      invoicing: {
        pac: { kind: 'sw', url: replica.url, user: REPLICA_USER, password: REPLICA_PASSWORD },
        sandboxInProduction: false,
      },
    },
  });
  shopper = await createTestShopper(t.database.db, 'Eduardo');
});
afterAll(async () => {
  await t.close();
  await replica.close();
});

describe('invoices through SW sapien (local replica)', () => {
  it('stamps at the PAC, stores its CFDI, cancels there with motivo 02 and invoices again', async () => {
    const number = await createTestOrder(t.database.db, shopper.id);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${number}/invoice`,
      payload: form,
      cookies: shopper.cookie,
    });
    expect(res.statusCode).toBe(201);
    const issued = res.json<{ invoice: InvoiceState }>().invoice;
    const stored = replica.stamped.get(issued.uuid!.toLowerCase());
    expect(stored).toBeDefined();
    const xml = (await t.app.inject({ url: `/api/orders/${number}/invoice.xml`, cookies: shopper.cookie }))
      .body;
    expect(xml).toBe(stored);
    const [row] = await t.database.db.select().from(invoices).where(eq(invoices.orderNumber, number));
    expect(row).toMatchObject({ pac: 'sw', test: true, status: 'issued' });
    expect(row?.snapshot).toMatchObject({
      rfcProvCertif: 'LSO1306189R5',
      noCertificadoSat: '30001000000500003456',
    });

    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${number}/invoice/cancel`,
      cookies: shopper.cookie,
    });
    expect(cancelled.statusCode).toBe(200);
    expect(replica.cancelled.has(issued.uuid!.toLowerCase())).toBe(true);
    const cancelCall = JSON.parse(replica.requests.at(-1)?.body ?? '{}') as { motivo?: string; rfc?: string };
    expect(cancelCall).toMatchObject({ motivo: '02', rfc: 'EKU9003173C9' });

    const again = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${number}/invoice`,
      payload: form,
      cookies: shopper.cookie,
    });
    expect(again.statusCode).toBe(201);
  });

  it('a PAC refusal answers 502 with the PAC’s reason, and nothing is stored or mailed', async () => {
    const number = await createTestOrder(t.database.db, shopper.id);
    replica.failNext(400, {
      status: 'error',
      message:
        'CFDI40147 - El RFC del receptor no se encuentra en la lista de RFC inscritos no cancelados del SAT.',
    });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${number}/invoice`,
      payload: form,
      cookies: shopper.cookie,
    });
    expect(res.statusCode).toBe(502);
    expect(res.json().error.message).toBe(
      'No se pudo generar su factura. El PAC rechazó la solicitud: CFDI40147 - El RFC del receptor no se encuentra en la lista de RFC inscritos no cancelados del SAT.',
    );
    expect(await t.database.db.select().from(invoices).where(eq(invoices.orderNumber, number))).toEqual([]);
    const mails = await t.database.db.select({ subject: mailOutbox.subject }).from(mailOutbox);
    expect(mails.filter((m) => m.subject.includes(`#${number}`))).toEqual([]);
    // The slot is free again: the next request succeeds.
    const retry = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${number}/invoice`,
      payload: form,
      cookies: shopper.cookie,
    });
    expect(retry.statusCode).toBe(201);
  });
});
