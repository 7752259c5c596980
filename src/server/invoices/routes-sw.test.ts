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
import { createInvoicingContext } from './context.ts';
import { followUpCancellations } from './follow-up.ts';

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
        pac: {
          kind: 'sw',
          url: replica.url,
          user: REPLICA_USER,
          password: REPLICA_PASSWORD,
          satStatusUrl: `${replica.url}/ConsultaCFDIService.svc`,
        },
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

  it('a cancellation the receptor rejects (SAT: «Solicitud rechazada») is recorded as rejected, still valid', async () => {
    const ctx = createInvoicingContext(t.app.config, t.database.db);
    const issue = async () => {
      const number = await createTestOrder(t.database.db, shopper.id);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/orders/${number}/invoice`,
        payload: form,
        cookies: shopper.cookie,
      });
      expect(res.statusCode).toBe(201);
      return { number, uuid: res.json<{ invoice: InvoiceState }>().invoice.uuid!.toLowerCase() };
    };
    const cancel = (number: number) =>
      t.app.inject({ method: 'POST', url: `/api/orders/${number}/invoice/cancel`, cookies: shopper.cookie });
    const state = async (number: number) =>
      (
        await t.app.inject({ url: `/api/orders/${number}/invoice`, cookies: shopper.cookie })
      ).json<InvoiceState>();

    const rejected = await issue();
    const accepted = await issue();
    for (const { number, uuid } of [rejected, accepted]) {
      replica.receptor.set(uuid, 'wait');
      const res = await cancel(number);
      expect(res.statusCode).toBe(200);
      expect(res.json().invoice).toMatchObject({ state: 'issued', cancellation: 'pending' });
    }
    expect(await followUpCancellations(ctx)).toMatchObject({ cancelled: 0, rejected: 0 });

    replica.receptor.set(rejected.uuid, 'reject');
    replica.receptor.set(accepted.uuid, 'accept');
    expect(await followUpCancellations(ctx)).toMatchObject({ cancelled: 1, rejected: 1 });
    // The follow-up asked SAT's status service with the printed expression (issuer, receptor, total, UUID).
    const asked = replica.requests.filter((r) => r.path === '/ConsultaCFDIService.svc');
    expect(asked.at(-1)?.headers.soapaction).toBe('http://tempuri.org/IConsultaCFDIService/Consulta');
    expect(asked.map((r) => r.body).join()).toContain(`&amp;id=${rejected.uuid.toUpperCase()}`);

    const [row] = await t.database.db
      .select()
      .from(invoices)
      .where(eq(invoices.orderNumber, rejected.number));
    expect(row).toMatchObject({ status: 'issued', cancelStatus: 'rejected' });
    expect(await state(rejected.number)).toMatchObject({
      state: 'issued',
      cancellation: 'rejected',
      canCorrect: false,
    });
    expect(await state(accepted.number)).toMatchObject({ state: 'cancelled', cancellation: null });
  });
});
