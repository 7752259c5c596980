/**
 * The port through which a money movement asks for its tax paper (decision 045). Orders sit below invoices
 * (invoices take the order's lock), so orders cannot call the invoices feature; the app wires the invoices'
 * `followTheMoney` here when it registers them. A movement's transaction commits first; the paper follows at once,
 * and the invoices' periodic round issues whatever a crash or a PAC outage left behind.
 */
export type TaxPapers = {
  /** After money moved on an order (a refund decided or done, a cancellation): its CFDI follows. Never throws. */
  afterMoneyMoved(orderNumber: number): Promise<void>;
};

/** A holder the app decorates itself with; the invoices plugin sets `impl`. */
export class TaxPaperPort implements TaxPapers {
  impl: ((orderNumber: number) => Promise<unknown>) | null = null;

  async afterMoneyMoved(orderNumber: number): Promise<void> {
    if (!this.impl) return;
    try {
      await this.impl(orderNumber);
    } catch {
      // The invoices' round issues it; the money movement itself is already recorded.
    }
  }
}
