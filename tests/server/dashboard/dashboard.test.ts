import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboard } from '../../../src/server/dashboard/service.ts';
import {
  groups,
  institutions,
  invoices,
  orderLedger,
  orderLines,
  orderRefunds,
  orders,
  products,
  purchaseInvoiceRequests,
  quotationRevisions,
  quotations,
  searchMisses,
} from '../../../src/server/db/schema.ts';
import { addDays, fromMexicoWallClock } from '../../../src/shared/mexico-time.ts';
import type { OrderPaymentMethod } from '../../../src/shared/payment-methods.ts';
import { dashboardSchema } from '../../../src/shared/schemas/dashboard.ts';
import type { OrderStatus } from '../../../src/shared/schemas/orders.ts';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  createStaff,
  type Shopper,
} from '../support/staff.ts';

/**
 * The dashboard against a seeded month whose truth is worked out here from the facts themselves (plain arithmetic
 * over the list below, never the service's SQL): sales at 23:59 and 00:01 Mexico City around the day and window
 * edges, this year and last, refunds (owed, paid, failed and redone), a cancellation after payment, a sale on
 * credit, quotations converted or not, searches that found little, and the work waiting.
 */

// Sunday 15 March 2026, 11:00 in Mexico City (UTC−6: 17:00Z). The 30 days run from 14 February.
const NOW = fromMexicoWallClock('2026-03-15T11:00:00');
const at = (wall: string) => fromMexicoWallClock(wall);

type Line = { code: string; quantity: number; unitCents: number };
type Money = { kind: 'refund_due' | 'refund_failed'; at: string; cents: number };
type SeedOrder = {
  key: string;
  status: OrderStatus;
  method: OrderPaymentMethod;
  createdAt: string;
  /** When the money came in (a 'charge'), or the credit order was placed ('credit_sale'); null: no sale. */
  soldAt: string | null;
  shippedAt?: string;
  lines: Line[];
  institution?: boolean;
  moves?: Money[];
  dueAt?: string;
};

const L = (code: string, quantity: number, unitCents: number): Line => ({ code, quantity, unitCents });

const SEED: SeedOrder[] = [
  // Yesterday 23:59 and today 00:01: one each side of midnight.
  {
    key: 'A',
    status: 'delivered',
    method: 'card',
    createdAt: '2026-03-14T23:50:00',
    soldAt: '2026-03-14T23:59:00',
    lines: [L('DASH-1', 2, 50_000)],
  },
  {
    key: 'B',
    status: 'paid',
    method: 'spei',
    createdAt: '2026-03-14T20:00:00',
    soldAt: '2026-03-15T00:01:00',
    lines: [L('DASH-2', 1, 123_456)],
  },
  // The 30 days' first edge: 13 Feb 23:59 is out, 14 Feb 00:01 is in.
  {
    key: 'C',
    status: 'delivered',
    method: 'card',
    createdAt: '2026-02-13T23:00:00',
    soldAt: '2026-02-13T23:59:00',
    lines: [L('DASH-1', 1, 50_000)],
  },
  {
    key: 'D',
    status: 'shipped',
    method: 'cash',
    createdAt: '2026-02-13T12:00:00',
    soldAt: '2026-02-14T00:01:00',
    shippedAt: '2026-02-16T10:00:00',
    lines: [L('DASH-3', 3, 10_000)],
  },
  // After the dashboard's now: not counted yet.
  {
    key: 'E',
    status: 'paid',
    method: 'card',
    createdAt: '2026-03-15T11:20:00',
    soldAt: '2026-03-15T11:30:00',
    lines: [L('DASH-1', 1, 50_000)],
  },
  // On an institution's credit line.
  {
    key: 'F',
    status: 'on_credit',
    method: 'credit',
    createdAt: '2026-03-10T09:00:00',
    soldAt: '2026-03-10T09:00:00',
    institution: true,
    lines: [L('DASH-2', 4, 100_000)],
  },
  // Paid, then cancelled with the card refunded.
  {
    key: 'G',
    status: 'cancelled',
    method: 'card',
    createdAt: '2026-03-12T10:00:00',
    soldAt: '2026-03-12T10:01:00',
    lines: [L('DASH-1', 3, 50_000)],
    moves: [{ kind: 'refund_due', at: '2026-03-13T09:00:00', cents: 150_000 }],
  },
  // Cash, part of it owed back since today 00:30.
  {
    key: 'H',
    status: 'preparing',
    method: 'cash',
    createdAt: '2026-02-28T08:00:00',
    soldAt: '2026-03-01T12:00:00',
    institution: true,
    lines: [L('DASH-1', 1, 50_000), L('DASH-3', 5, 10_000)],
    moves: [{ kind: 'refund_due', at: '2026-03-15T00:30:00', cents: 20_000 }],
  },
  // A refund by payout that failed, then owed again by transfer.
  {
    key: 'I',
    status: 'delivered',
    method: 'spei',
    createdAt: '2026-03-04T10:00:00',
    soldAt: '2026-03-04T11:00:00',
    lines: [L('DASH-2', 1, 200_000)],
    moves: [
      { kind: 'refund_due', at: '2026-03-05T10:00:00', cents: 30_000 },
      { kind: 'refund_failed', at: '2026-03-06T10:00:00', cents: 30_000 },
      { kind: 'refund_due', at: '2026-03-06T10:05:00', cents: 30_000 },
    ],
  },
  // No sale: waiting for a SPEI payment, declined, released unpaid.
  {
    key: 'J',
    status: 'pending_payment',
    method: 'spei',
    createdAt: '2026-03-14T18:00:00',
    soldAt: null,
    dueAt: '2026-03-16T18:00:00',
    lines: [L('DASH-1', 1, 50_000)],
  },
  {
    key: 'K',
    status: 'pending_payment',
    method: 'cash',
    createdAt: '2026-03-15T08:00:00',
    soldAt: null,
    dueAt: '2026-03-18T08:00:00',
    lines: [L('DASH-3', 2, 10_000)],
  },
  {
    key: 'M',
    status: 'payment_failed',
    method: 'card',
    createdAt: '2026-03-02T10:00:00',
    soldAt: null,
    lines: [L('DASH-1', 1, 50_000)],
  },
  {
    key: 'N',
    status: 'cancelled',
    method: 'spei',
    createdAt: '2026-03-03T10:00:00',
    soldAt: null,
    lines: [L('DASH-2', 1, 100_000)],
  },
  // Last year: the same day until 11:00 (10:59 in, 11:01 out), and the 30 days' first edge a year before.
  {
    key: 'P',
    status: 'delivered',
    method: 'card',
    createdAt: '2025-03-15T10:00:00',
    soldAt: '2025-03-15T10:59:00',
    lines: [L('DASH-1', 1, 40_000)],
  },
  {
    key: 'Q',
    status: 'delivered',
    method: 'card',
    createdAt: '2025-03-15T11:00:00',
    soldAt: '2025-03-15T11:01:00',
    lines: [L('DASH-1', 1, 40_000)],
  },
  {
    key: 'R',
    status: 'delivered',
    method: 'spei',
    createdAt: '2025-02-13T23:00:00',
    soldAt: '2025-02-14T00:00:00',
    lines: [L('DASH-2', 1, 90_000)],
    moves: [{ kind: 'refund_due', at: '2025-02-20T10:00:00', cents: 10_000 }],
  },
  {
    key: 'S',
    status: 'delivered',
    method: 'cash',
    createdAt: '2025-02-13T20:00:00',
    soldAt: '2025-02-13T23:59:59',
    lines: [L('DASH-3', 1, 10_000)],
  },
];

const PRODUCTS = [
  { code: 'DASH-1', name: 'Matraz de prueba', group: 'T-REA-1' },
  { code: 'DASH-2', name: 'Balanza de prueba', group: 'T-EQU' },
  { code: 'DASH-3', name: 'Guantes de prueba', group: null },
];
const CATEGORY_OF: Record<string, string> = {
  'DASH-1': 'Reactivos de prueba',
  'DASH-2': 'Equipo de prueba',
  'DASH-3': 'Sin categoría',
};

let t: CheckoutTestApp;
let staff: Shopper;
let shopper: Shopper;
const numberOf = new Map<string, number>();
let institutionId = 0;
const INSTITUTION = 'Universidad de Pruebas del Tablero';

const totalOf = (o: SeedOrder) => o.lines.reduce((s, l) => s + l.quantity * l.unitCents, 0);
const actor = { by: 'system' as const, userId: null, label: 'prueba' };

beforeAll(async () => {
  t = await createCheckoutApp();
  staff = await createStaff(t);
  shopper = await createShopper(t);
  await t.db.insert(groups).values([
    { clas: 'T-REA', name: 'Reactivos de prueba' },
    { clas: 'T-REA-1', name: 'Ácidos de prueba', parentClas: 'T-REA' },
    { clas: 'T-EQU', name: 'Equipo de prueba' },
  ]);
  await t.db
    .insert(products)
    .values(PRODUCTS.map((p) => ({ code: p.code, name: p.name, groupClas: p.group, priceCents: 1 })));
  const [inst] = await t.db
    .insert(institutions)
    .values({ razonSocial: INSTITUTION, rfc: 'UPT010101AB1', regimenFiscal: '603', cp: '44100' })
    .returning();
  institutionId = inst!.id;
  let n = 0;
  for (const o of SEED) {
    n += 1;
    const total = totalOf(o);
    const [row] = await t.db
      .insert(orders)
      .values({
        number: 90_000 + n,
        userId: shopper.id,
        status: o.status,
        subtotalCents: total,
        shippingCents: 0,
        ivaCents: total - Math.round(total / 1.16),
        totalCents: total,
        address: {} as never,
        idempotencyKey: `dash-${o.key}`,
        requestHash: 'x',
        paymentMethod: o.method,
        paymentDueAt: o.dueAt ? at(o.dueAt) : null,
        paidAt: o.soldAt && o.method !== 'credit' ? at(o.soldAt) : null,
        shippedAt: o.shippedAt ? at(o.shippedAt) : null,
        institutionId: o.institution ? institutionId : null,
        createdAt: at(o.createdAt),
      })
      .returning();
    numberOf.set(o.key, row!.number);
    await t.db.insert(orderLines).values(
      o.lines.map((l, i) => ({
        orderNumber: row!.number,
        lineNo: i + 1,
        productCode: l.code,
        description: PRODUCTS.find((p) => p.code === l.code)!.name,
        unitPriceCents: l.unitCents,
        quantity: l.quantity,
      })),
    );
    if (o.soldAt) {
      await t.db.insert(orderLedger).values({
        orderNumber: row!.number,
        kind: o.method === 'credit' ? 'credit_sale' : 'charge',
        amountCents: total,
        method: o.method === 'credit' ? null : o.method,
        reference: `ch-${o.key}`,
        actor,
        createdAt: at(o.soldAt),
      });
    }
    for (const [i, m] of (o.moves ?? []).entries()) {
      await t.db.insert(orderLedger).values({
        orderNumber: row!.number,
        kind: m.kind,
        amountCents: m.cents,
        method: 'transfer',
        reference: `mv-${o.key}-${i}`,
        actor,
        createdAt: at(m.at),
      });
    }
  }
  // The refunds as work: H's owed, I's second one in progress, G's and I's first done/failed.
  const refund = (
    key: string,
    state: 'owed' | 'in_progress' | 'done' | 'failed',
    cents: number,
    when: string,
  ) => ({
    orderNumber: numberOf.get(key)!,
    route: key === 'G' ? ('card' as const) : ('transfer' as const),
    amountCents: cents,
    state,
    reason: 'prueba',
    actor,
    createdAt: at(when),
  });
  await t.db
    .insert(orderRefunds)
    .values([
      refund('G', 'done', 150_000, '2026-03-13T09:00:00'),
      refund('H', 'owed', 20_000, '2026-03-15T00:30:00'),
      refund('I', 'failed', 30_000, '2026-03-05T10:00:00'),
      refund('I', 'in_progress', 30_000, '2026-03-06T10:05:00'),
    ]);
  // Quotations issued inside and outside the 30 days; converted to a paid order, to a declined one, or not.
  const quotation = async (folio: string, created: string, totalCents: number, orderKey: string | null) => {
    const [q] = await t.db
      .insert(quotations)
      .values({
        folio,
        userId: shopper.id,
        validUntil: at(addDays(created.slice(0, 10), 30)),
        buyerName: 'María López',
        orderNumber: orderKey ? numberOf.get(orderKey)! : null,
        revision: 2,
        createdAt: at(created),
      })
      .returning();
    // Revision 1 at another price: only the current revision's value counts.
    await t.db.insert(quotationRevisions).values(
      [1, 2].map((revision) => ({
        quotationId: q!.id,
        revision,
        reason: revision === 1 ? ('created' as const) : ('adjusted' as const),
        lines: [],
        subtotalCents: 0,
        shippingCents: 0,
        ivaCents: 0,
        totalCents: revision === 2 ? totalCents : 999_999,
        validUntil: at(addDays(created.slice(0, 10), 30)),
      })),
    );
  };
  await quotation('COT-T-1', '2026-03-01T10:00:00', 123_456, 'B');
  await quotation('COT-T-2', '2026-03-02T10:00:00', 50_000, 'M');
  await quotation('COT-T-3', '2026-02-14T00:01:00', 70_000, null);
  await quotation('COT-T-4', '2026-02-13T23:59:00', 80_000, 'A');
  await quotation('COT-T-5', '2026-03-10T10:00:00', 400_000, 'F');
  await t.db.insert(searchMisses).values([
    { day: '2026-03-15', term: 'acido perclorico', results: 0, searches: 4 },
    { day: '2026-03-01', term: 'acido perclorico', results: 1, searches: 2 },
    { day: '2026-02-14', term: 'pipeta de 7 ml', results: 2, searches: 3 },
    { day: '2026-02-13', term: 'pipeta de 7 ml', results: 2, searches: 50 },
    { day: '2026-02-13', term: 'bureta antigua', results: 0, searches: 9 },
  ]);
  // Invoices waiting at the PAC: one being stamped, one cancellation 'en proceso', one asked at purchase.
  const invoice = (key: string, extra: Partial<typeof invoices.$inferInsert>) => ({
    orderNumber: numberOf.get(key)!,
    userId: shopper.id,
    pac: 'sandbox',
    rfc: 'XAXX010101000',
    nombreFiscal: 'PRUEBA',
    regimenFiscal: '616',
    usoCfdi: 'S01',
    formaPago: '04',
    cp: '44100',
    subtotalCents: 1,
    ivaCents: 0,
    totalCents: 1,
    ...extra,
  });
  await t.db.insert(invoices).values([
    invoice('A', { status: 'pending', createdAt: at('2026-03-15T10:00:00') }),
    invoice('I', {
      status: 'issued',
      cancelStatus: 'pending',
      cancelRequestedAt: at('2026-03-10T10:00:00'),
    }),
    invoice('D', { status: 'issued' }),
  ]);
  await t.db.insert(purchaseInvoiceRequests).values({
    orderNumber: numberOf.get('B')!,
    userId: shopper.id,
    request: {
      rfc: 'X',
      nombreFiscal: 'X',
      regimenFiscal: '616',
      cp: '44100',
      usoCfdi: 'S01',
      rfcConfirmado: true,
    },
    email: 'x@example.com',
  });
}, 120_000);
afterAll(() => t.close());

// ——— The truth, from the facts above ———

const wall = (s: string) => s.slice(0, 10);
type Window = { from: string; to: string };
const inWindow = (w: Window, when: string) => when >= w.from && when < w.to;

function salesTruth(w: Window) {
  let gross = 0;
  let back = 0;
  let count = 0;
  for (const o of SEED) {
    if (o.soldAt && inWindow(w, o.soldAt)) {
      gross += totalOf(o);
      count += 1;
    }
    for (const m of o.moves ?? []) {
      if (inWindow(w, m.at)) back += m.kind === 'refund_due' ? m.cents : -m.cents;
    }
  }
  return { grossCents: gross, givenBackCents: back, netCents: gross - back, orders: count };
}

const WINDOWS = {
  today: {
    current: { from: '2026-03-15T00:00:00', to: '2026-03-15T11:00:00' },
    lastYear: { from: '2025-03-15T00:00:00', to: '2025-03-15T11:00:00' },
  },
  '7d': {
    current: { from: '2026-03-09T00:00:00', to: '2026-03-15T11:00:00' },
    lastYear: { from: '2025-03-09T00:00:00', to: '2025-03-15T11:00:00' },
  },
  '30d': {
    current: { from: '2026-02-14T00:00:00', to: '2026-03-15T11:00:00' },
    lastYear: { from: '2025-02-14T00:00:00', to: '2025-03-15T11:00:00' },
  },
} as const;

describe('the dashboard equals the truth of a seeded month (Mexico City days)', () => {
  it('sales today, 7 and 30 days and the same periods last year: gross, given back, net, orders', async () => {
    const d = await dashboard(t.db, NOW);
    expect(d.today).toBe('2026-03-15');
    for (const p of d.sales.periods) {
      const w = WINDOWS[p.period];
      expect(p.from, p.period).toBe(wall(w.current.from));
      expect(p.current, `${p.period} actual`).toEqual(salesTruth(w.current));
      expect(p.lastYear, `${p.period} año anterior`).toEqual(salesTruth(w.lastYear));
    }
    // The edges, spelled out: today is B alone, less H's refund owed since 00:30; last year's today is P alone.
    const today = d.sales.periods.find((p) => p.period === 'today')!;
    expect(today.current).toEqual({
      grossCents: 123_456,
      givenBackCents: 20_000,
      netCents: 103_456,
      orders: 1,
    });
    expect(today.lastYear).toEqual({ grossCents: 40_000, givenBackCents: 0, netCents: 40_000, orders: 1 });
  });

  it('the 30 days day by day against the same days last year', async () => {
    const d = await dashboard(t.db, NOW);
    expect(d.sales.daily).toHaveLength(30);
    expect(d.sales.daily[0]).toMatchObject({ day: '2026-02-14', lastYearDay: '2025-02-14' });
    expect(d.sales.daily[29]).toMatchObject({ day: '2026-03-15', lastYearDay: '2025-03-15' });
    for (const day of d.sales.daily) {
      const clip = (w: Window, dayOf: string) => ({
        from: `${dayOf}T00:00:00`,
        to: dayOf === wall(w.to) ? w.to : `${addDays(dayOf, 1)}T00:00:00`,
      });
      expect(day.netCents, day.day).toBe(salesTruth(clip(WINDOWS['30d'].current, day.day)).netCents);
      expect(day.lastYearNetCents, day.lastYearDay).toBe(
        salesTruth(clip(WINDOWS['30d'].lastYear, day.lastYearDay)).netCents,
      );
    }
    expect(d.sales.daily.find((x) => x.day === '2026-03-14')!.netCents).toBe(100_000);
    expect(d.sales.daily.find((x) => x.day === '2026-03-15')!.netCents).toBe(103_456);
  });

  it('by payment method (credit included) and by top-level category', async () => {
    const d = await dashboard(t.db, NOW);
    const byMethod = (w: Window) => {
      const m: Record<string, number> = {};
      for (const o of SEED)
        if (o.soldAt && inWindow(w, o.soldAt)) m[o.method] = (m[o.method] ?? 0) + totalOf(o);
      return m;
    };
    const now = byMethod(WINDOWS['30d'].current);
    const before = byMethod(WINDOWS['30d'].lastYear);
    const methods = new Set([...Object.keys(now), ...Object.keys(before)]);
    expect(
      Object.fromEntries(d.sales.byMethod.map((m) => [m.method, [m.grossCents, m.lastYearGrossCents]])),
    ).toEqual(Object.fromEntries([...methods].map((m) => [m, [now[m] ?? 0, before[m] ?? 0]])));
    expect(d.sales.byMethod.find((m) => m.method === 'credit')?.label).toBe('A crédito');

    const categories: Record<string, number> = {};
    for (const o of SEED) {
      if (!o.soldAt || !inWindow(WINDOWS['30d'].current, o.soldAt)) continue;
      for (const l of o.lines)
        categories[CATEGORY_OF[l.code]!] = (categories[CATEGORY_OF[l.code]!] ?? 0) + l.quantity * l.unitCents;
    }
    expect(Object.fromEntries(d.sales.byCategory.map((c) => [c.name, c.cents]))).toEqual(categories);
    // A subgroup's sales count for its top-level group.
    expect(d.sales.byCategory.find((c) => c.name === 'Reactivos de prueba')?.clas).toBe('T-REA');
  });

  it('orders by state (30 days and all), with the oldest waiting of each waiting state', async () => {
    const d = await dashboard(t.db, NOW);
    const since = (o: SeedOrder) =>
      o.status === 'pending_payment'
        ? o.createdAt
        : o.status === 'shipped'
          ? (o.shippedAt ?? o.soldAt ?? o.createdAt)
          : ((o.method === 'credit' ? null : o.soldAt) ?? o.createdAt);
    const waiting = ['pending_payment', 'paid', 'on_credit', 'preparing', 'partially_shipped', 'shipped'];
    for (const row of d.orders) {
      const mine = SEED.filter((o) => o.status === row.status);
      expect(row.total, row.status).toBe(mine.length);
      expect(row.last30, row.status).toBe(
        mine.filter((o) => inWindow(WINDOWS['30d'].current, o.createdAt)).length,
      );
      if (!waiting.includes(row.status) || mine.length === 0) {
        expect(row.waiting, row.status).toBeNull();
        continue;
      }
      const oldest = [...mine].sort((a, b) => since(a)!.localeCompare(since(b)!))[0]!;
      expect(row.waiting, row.status).toEqual({
        since: at(since(oldest)!).toISOString(),
        number: numberOf.get(oldest.key),
      });
    }
    expect(d.orders.find((r) => r.status === 'paid')!.waiting!.number).toBe(numberOf.get('B'));
  });

  it('quotations issued in the 30 days against those converted, by count and value', async () => {
    const d = await dashboard(t.db, NOW);
    // COT-T-1 (→ B, paid), COT-T-2 (→ M, declined: not converted), COT-T-3 (none), COT-T-5 (→ F, on credit);
    // COT-T-4 was issued 13 Feb 23:59, the day before the 30 days.
    expect(d.quotations).toEqual({
      issued: 4,
      converted: 2,
      ratePercent: 50,
      issuedCents: 123_456 + 50_000 + 70_000 + 400_000,
      convertedCents: 123_456 + 400_000,
    });
  });

  it('top products and institutions of the 30 days', async () => {
    const d = await dashboard(t.db, NOW);
    const byProduct: Record<string, { units: number; cents: number }> = {};
    const byInstitution = { orders: 0, cents: 0 };
    for (const o of SEED) {
      if (!o.soldAt || !inWindow(WINDOWS['30d'].current, o.soldAt)) continue;
      for (const l of o.lines) {
        const p = byProduct[l.code] ?? { units: 0, cents: 0 };
        byProduct[l.code] = p;
        p.units += l.quantity;
        p.cents += l.quantity * l.unitCents;
      }
      if (o.institution) {
        byInstitution.orders += 1;
        byInstitution.cents += totalOf(o);
      }
    }
    const expected = Object.entries(byProduct)
      .sort((a, b) => b[1].cents - a[1].cents)
      .map(([code, v]) => ({ code, description: PRODUCTS.find((p) => p.code === code)!.name, ...v }));
    expect(d.topProducts).toEqual(expected);
    expect(d.topInstitutions).toEqual([{ id: institutionId, name: INSTITUTION, ...byInstitution }]);
  });

  it('searches that found little in the 30 days, most searched first', async () => {
    const d = await dashboard(t.db, NOW);
    expect(d.searchMisses).toEqual([
      { term: 'acido perclorico', results: 0, searches: 6 },
      { term: 'pipeta de 7 ml', results: 2, searches: 3 },
    ]);
  });

  it('the work waiting: SPEI/cash payments, refunds owed, CFDIs at the PAC', async () => {
    const d = await dashboard(t.db, NOW);
    const awaiting = SEED.filter((o) => o.status === 'pending_payment');
    expect(d.waiting.delayedPayments).toEqual({
      n: awaiting.length,
      cents: awaiting.reduce((s, o) => s + totalOf(o), 0),
      firstDue: at('2026-03-16T18:00:00').toISOString(),
    });
    expect(d.waiting.refundsOwed).toEqual({
      n: 2,
      cents: 20_000 + 30_000,
      oldest: at('2026-03-06T10:05:00').toISOString(),
    });
    expect(d.waiting.invoicesAtPac).toMatchObject({ n: 3, stamping: 1, atPurchase: 1, cancellation: 1 });
    expect(d.waiting.invoicesAtPac.oldest).toBe(at('2026-03-10T10:00:00').toISOString());
  });

  it('GET /api/admin/dashboard: staff only, the schema it promises', async () => {
    const res = await t.app.inject({ url: '/api/admin/dashboard', headers: { cookie: staff.cookie } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(dashboardSchema.safeParse(res.json()).success).toBe(true);
    expect(
      (await t.app.inject({ url: '/api/admin/dashboard', headers: { cookie: shopper.cookie } })).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ url: '/api/admin/dashboard' })).statusCode).toBe(401);
    // The queues /metrics reads are the same rows (one definition).
    const metrics = await t.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(metrics.body).toContain('tienda_queue_size{queue="refunds_open",kind="owed"} 1');
    expect(metrics.body).toContain('tienda_queue_size{queue="invoices_waiting",kind="at_purchase"} 1');
  });
});
