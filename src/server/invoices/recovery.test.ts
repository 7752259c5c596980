import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REPLICA_PASSWORD,
  REPLICA_USER,
  type SwReplica,
  startSwReplica,
} from '../../../tests/server/replicas/sw-sapien.ts';
import { testCsd } from '../../../tests/server/support/cfdi-sample.ts';
import { validateCfdiXml } from '../../../tests/server/support/cfdi-xsd.ts';
import {
  createTestOrder,
  createTestShopper,
  type TestShopper,
} from '../../../tests/server/support/invoice-orders.ts';
import { createTestApp, type TestApp } from '../../../tests/server/support/test-app.ts';
import type { SessionUser } from '../auth/session.ts';
import { invoices, mailOutbox, sandboxCfdiStamps } from '../db/schema.ts';
import { createInvoicingContext } from './context.ts';
import { followUpCancellations } from './follow-up.ts';
import { issueInvoice, RECOVERED } from './issue.ts';
import { SwSapienPac } from './pac/sw-sapien.ts';
import { readAttribute } from './pac/tfd.ts';
import type { Pac } from './pac/types.ts';
import { getInvoiceState } from './state.ts';

let t: TestApp;
let ana: TestShopper;
let user: SessionUser;

const form = {
  nombreFiscal: 'Laboratorios Químicos del Bajío',
  rfc: 'LQB150101AB3',
  regimenFiscal: '601',
  usoCfdi: 'G03',
  cp: '44100',
};

beforeAll(async () => {
  t = await createTestApp();
  ana = await createTestShopper(t.database.db, 'Ana');
  user = {
    id: ana.id,
    email: ana.email,
    role: 'customer',
    nombre: 'Ana',
    apellidoPat: 'López',
    apellidoMat: 'Ruiz',
    telefono: '3312345678',
  };
});
afterAll(async () => {
  await t.close();
});

/** A PAC whose answer is lost after it stamped (the process died, the connection dropped): it throws. */
function losingAnswerOnce(inner: Pac): Pac & { stamped: string[] } {
  let lose = true;
  const stamped: string[] = [];
  return {
    name: inner.name,
    stamped,
    cancel: (r) => inner.cancel(r),
    cancellationStatus: (r) => inner.cancellationStatus(r),
    stamp: async (xml) => {
      const stamp = await inner.stamp(xml);
      stamped.push(stamp.uuid);
      if (lose) {
        lose = false;
        throw new Error('el proceso terminó tras el timbrado');
      }
      return stamp;
    },
  };
}

const rowsOf = (number: number) =>
  t.database.db.select().from(invoices).where(eq(invoices.orderNumber, number)).orderBy(invoices.id);

describe('stamping is idempotent across crashes (sandbox PAC, its stamps in the database)', () => {
  it('the retry recovers the CFDI the PAC stamped before the crash: one UUID, one stamp, one invoice', async () => {
    const base = createInvoicingContext(t.app.config, t.database.db);
    const pac = losingAnswerOnce(base.pac);
    const ctx = { ...base, pac };
    const number = await createTestOrder(t.database.db, ana.id);

    await expect(issueInvoice(ctx, user, number, form)).rejects.toThrow(/terminó tras el timbrado/);
    expect(pac.stamped).toHaveLength(1);
    const [left] = await rowsOf(number);
    expect(left).toMatchObject({ status: 'pending', uuid: null });
    expect(left?.sealed?.xml).toContain(`Folio="${left?.folio}"`);

    // The shopper asks again (a new process, the same database): the stamp made then is the one stored.
    const again = await issueInvoice({ ...base, pac }, user, number, { ...form, usoCfdi: 'G01' });
    expect(again.message).toBe(RECOVERED);
    expect(again.invoice).toMatchObject({ state: 'issued', uuid: pac.stamped[0] });
    expect(new Set(pac.stamped)).toEqual(new Set([pac.stamped[0]]));

    const rows = await rowsOf(number);
    expect(rows.map((r) => [r.status, r.uuid])).toEqual([['issued', pac.stamped[0]]]);
    expect(await validateCfdiXml(rows[0]!.xml!)).toEqual({ valid: true, errors: [] });
    // The CFDI the PAC stamped then: its data, not the retry's (G03, not G01).
    expect(readAttribute(rows[0]!.xml!, 'cfdi:Receptor', 'UsoCFDI')).toBe('G03');
    const stamps = await t.database.db.select().from(sandboxCfdiStamps);
    expect(stamps.filter((s) => s.stamp.uuid === pac.stamped[0])).toHaveLength(1);
    const mails = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, ana.email));
    expect(mails.filter((m) => m.kind === 'invoice-issued' && m.text.includes(pac.stamped[0]!))).toHaveLength(
      1,
    );
  });

  it('a pending row that never got sealed is dropped and the order is invoiced anew', async () => {
    const ctx = createInvoicingContext(t.app.config, t.database.db, { pendingStaleMs: 60_000 });
    const number = await createTestOrder(t.database.db, ana.id);
    await t.database.db.insert(invoices).values({
      orderNumber: number,
      userId: ana.id,
      status: 'pending',
      pac: 'sandbox',
      rfc: form.rfc,
      nombreFiscal: form.nombreFiscal,
      regimenFiscal: form.regimenFiscal,
      usoCfdi: form.usoCfdi,
      formaPago: '04',
      cp: form.cp,
      subtotalCents: 0,
      ivaCents: 0,
      totalCents: 0,
      createdAt: new Date(Date.now() - 61_000),
    });
    const res = await issueInvoice(ctx, user, number, form);
    expect(res.invoice.state).toBe('issued');
    expect((await rowsOf(number)).map((r) => r.status)).toEqual(['issued']);
  });

  it('a fresh pending row still answers «se está generando»', async () => {
    const base = createInvoicingContext(t.app.config, t.database.db);
    const number = await createTestOrder(t.database.db, ana.id);
    await expect(
      issueInvoice({ ...base, pac: losingAnswerOnce(base.pac) }, user, number, form),
    ).rejects.toThrow();
    // Not marked recoverable by a lost answer? It is: a lost answer may mean a stamp. A request that is merely
    // slow (fresh row, not marked) is not taken over:
    await t.database.db
      .update(invoices)
      .set({ createdAt: new Date() })
      .where(eq(invoices.orderNumber, number));
    await expect(issueInvoice(base, user, number, form)).rejects.toMatchObject({
      statusCode: 409,
      message: 'La factura de este pedido se está generando; espere un momento',
    });
  });
});

describe('the periodic round finishes what a crash left pending', () => {
  it('an invoice left «pendiente» by a crash right after the PAC stamped is stored by one run, without a new request', async () => {
    const base = createInvoicingContext(t.app.config, t.database.db);
    let stampedNow: (uuid: string) => void = () => {};
    const stamped = new Promise<string>((resolve) => {
      stampedNow = resolve;
    });
    // The process dies right after the PAC stamped (CFDI_FAILPOINT 'after-stamp'): nothing after it ever runs.
    const dying: Pac = {
      name: base.pac.name,
      cancel: (r) => base.pac.cancel(r),
      cancellationStatus: (r) => base.pac.cancellationStatus(r),
      stamp: async (xml) => {
        const stamp = await base.pac.stamp(xml);
        stampedNow(stamp.uuid);
        return new Promise<never>(() => {});
      },
    };
    const number = await createTestOrder(t.database.db, ana.id);
    void issueInvoice({ ...base, pac: dying }, user, number, form);
    const uuid = await stamped;
    const [left] = await rowsOf(number);
    expect(left).toMatchObject({ status: 'pending', uuid: null });

    // Fifteen minutes later the invoices' round runs; the buyer has not asked again.
    const later = { ...base, now: () => new Date(Date.now() + 15 * 60_000) };
    expect((await followUpCancellations(later)).recovered).toBeGreaterThanOrEqual(1);
    const rows = await rowsOf(number);
    expect(rows.map((r) => [r.status, r.uuid, r.folio])).toEqual([['issued', uuid, left!.folio]]);
    expect((await getInvoiceState(base, user, number)).state).toBe('issued');
    const mails = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, ana.email));
    expect(mails.filter((m) => m.kind === 'invoice-issued' && m.text.includes(uuid))).toHaveLength(1);
  });
});

describe('SW sapien answers 307 with the stamp it made for the same sealed CFDI', () => {
  let replica: SwReplica;
  beforeAll(async () => {
    replica = await startSwReplica(testCsd());
  });
  afterAll(async () => {
    await replica.close();
  });

  it('the retry gets the first UUID back from the PAC', async () => {
    const base = createInvoicingContext(t.app.config, t.database.db);
    const sw = new SwSapienPac({
      url: replica.url,
      user: REPLICA_USER,
      password: REPLICA_PASSWORD,
      csd: base.csd,
    });
    const pac = losingAnswerOnce(sw);
    const number = await createTestOrder(t.database.db, ana.id);
    await expect(issueInvoice({ ...base, pac }, user, number, form)).rejects.toThrow();
    const again = await issueInvoice({ ...base, pac }, user, number, form);
    expect(again.message).toBe(RECOVERED);
    expect(again.invoice.uuid).toBe(pac.stamped[0]);
    expect(pac.stamped).toEqual([pac.stamped[0], pac.stamped[0]]);
    expect(replica.stamped.size).toBe(1);
  });
});
