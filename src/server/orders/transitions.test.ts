import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ORDER_STATUS_LABELS, type OrderStatus } from '../../shared/schemas/orders.ts';
import { TRANSITIONS, transitionFor } from './transitions.ts';
import { DECISION_010, withTransitionsTable } from './transitions-doc.ts';

describe('the transition table', () => {
  it('is the table decision 010 shows (npm run docs:transitions regenerates it)', () => {
    const doc = readFileSync(resolve(import.meta.dirname, '../../..', DECISION_010), 'utf8');
    expect(withTransitionsTable(doc)).toBe(doc);
  });

  it('has one next state per state, event and requester', () => {
    const statuses = Object.keys(ORDER_STATUS_LABELS) as OrderStatus[];
    for (const status of statuses) {
      for (const t of TRANSITIONS) {
        for (const who of t.who) {
          const matches = TRANSITIONS.filter(
            (x) => x.event === t.event && x.from.includes(status) && x.who.includes(who),
          );
          expect(matches.length, `${status} × ${t.event} × ${who}`).toBeLessThanOrEqual(1);
        }
      }
    }
  });

  it('lets nobody move a cancelled or delivered order, and only staff move fulfilment', () => {
    for (const t of TRANSITIONS) {
      expect(t.from).not.toContain('cancelled');
      expect(t.from).not.toContain('delivered');
    }
    expect(transitionFor('paid', 'ship', 'staff')).toBeNull();
    expect(transitionFor('preparing', 'ship', 'shopper')).toBeNull();
    expect(transitionFor('preparing', 'ship', 'staff')?.to).toBe('shipped');
    expect(transitionFor('preparing', 'cancel', 'shopper')).toBeNull();
    expect(transitionFor('preparing', 'cancel', 'staff')?.to).toBe('cancelled');
    expect(transitionFor('pending_payment', 'pay', 'shopper')).toBeNull();
  });
});
