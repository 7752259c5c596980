import { describe, expect, it } from 'vitest';
import { mexicoCityDate } from '../../shared/mexico-time.ts';
import { returnRefusal, returnWindowEnd } from '../../shared/returns.ts';
import { SALES_TERMS } from '../../shared/sales-terms.ts';
import { shop } from '../../shared/shop.ts';
import { windowClosed } from './eligibility.ts';

/** The return window of the Devoluciones page, counted in Mexico City days from the delivery (decision 062). */
describe('the return window', () => {
  it('is the one value of config/shop.json that the policy page and the quotation terms read', () => {
    expect(SALES_TERMS.returnDays).toBe(shop.returns.windowDays);
  });

  it('a delivery at 23:30 in Mexico City (05:30 UTC the next day) counts from the Mexico City day', () => {
    const delivered = mexicoCityDate(new Date('2026-11-18T05:30:00Z'));
    expect(delivered).toBe('2026-11-17');
    const days = SALES_TERMS.returnDays;
    const day = (n: number) => new Date(Date.UTC(2026, 10, 17 + n)).toISOString().slice(0, 10);
    const last = returnWindowEnd(delivered);
    expect(last).toBe(day(days));
    expect(windowClosed({ status: 'delivered' }, delivered, day(0))).toBeNull();
    expect(windowClosed({ status: 'delivered' }, delivered, last)).toBeNull();
    expect(windowClosed({ status: 'delivered' }, delivered, day(days + 1))).toContain(`terminó el ${last}`);
    expect(windowClosed({ status: 'shipped' }, null, '2026-11-18')).toBe(
      'Las devoluciones se solicitan una vez entregado el pedido',
    );
  });

  it('a change of mind is refused for reagents, controlled chemicals and sobre pedido; a defect never is', () => {
    const equipment = { reagent: false, controlled: false, backordered: false };
    expect(returnRefusal('not_needed', equipment)).toBeNull();
    expect(returnRefusal('not_needed', { ...equipment, reagent: true })).toMatch(/reactivos/);
    expect(returnRefusal('not_needed', { ...equipment, controlled: true })).toMatch(/controlados/);
    expect(returnRefusal('not_needed', { ...equipment, backordered: true })).toMatch(/sobre pedido/);
    for (const reason of ['defective', 'wrong_item'] as const)
      expect(returnRefusal(reason, { reagent: true, controlled: true, backordered: true })).toBeNull();
  });
});
