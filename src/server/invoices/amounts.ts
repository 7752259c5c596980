import { baseOfIvaIncluded, includedIva, saleIva } from '../../shared/money.ts';

/**
 * Turning IVA-included prices into CFDI amounts. Every catalogue price includes 16 % IVA; the CFDI
 * states the amount before tax (Importe, Base) and the tax (Traslado Importe) per concept.
 *
 * Per concept: base = round(total / 1.16) and iva = total − base (SPEC-NOTES 3), all in centavos, by the shared
 * rule (src/shared/money.ts) that also gives the cart, the order and the quotation their IVA: the same centavo.
 * Because iva is the remainder, base + iva = total exactly for every concept, so
 * SubTotal + TotalImpuestosTrasladados = Σ totals = the order total, to the centavo. And since
 * |total − 1.16·base| ≤ 0.58 centavos, each iva stays inside SAT's tolerance around Base × 0.16.
 */

export type ConceptSource = {
  /** SAT c_ClaveProdServ (8 digits). */
  productKey: string;
  /** SAT c_ClaveUnidad. */
  unitKey: string;
  /** The shop's product code (NoIdentificacion). */
  code: string | null;
  description: string;
  quantity: number;
  /** IVA-included price of one unit, in centavos. */
  unitPriceCents: number;
};

export type ConceptAmounts = ConceptSource & {
  /** IVA-included line total in centavos (unit price × quantity), before any discount. */
  totalCents: number;
  /** Importe (before tax, before discount), in centavos. */
  baseCents: number;
  /** Descuento (before tax): 0 unless part of the sale was given back before it was invoiced. */
  discountCents: number;
  /** Base of the IVA Traslado: Importe − Descuento. */
  taxBaseCents: number;
  /** IVA of what is charged (the line total less its share of the discount). */
  ivaCents: number;
  /** ValorUnitario with six decimals (text), so that Cantidad × ValorUnitario ≈ Importe. */
  unitValue: string;
};

export type CfdiAmounts = {
  concepts: ConceptAmounts[];
  /** SubTotal: Σ Importe. */
  subtotalCents: number;
  /** Descuento: Σ of the concepts' Descuento (0: the attribute is left out). */
  discountCents: number;
  /** Base of the comprobante's IVA Traslado: Σ of the concepts' bases (SubTotal − Descuento). */
  taxBaseCents: number;
  ivaCents: number;
  /** Total: SubTotal − Descuento + IVA. */
  totalCents: number;
};

/** A non-negative amount in centavos as pesos with two decimals ("1234.50"). */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** base (centavos) / quantity as a decimal with six places, rounded half up, exactly (BigInt). */
export function unitValueOf(baseCents: number, quantity: number): string {
  // value in millionths of a peso = baseCents * 10^4 / quantity
  const num = BigInt(baseCents) * 10_000n;
  const q = BigInt(quantity);
  const micro = (num * 2n + q) / (2n * q);
  const whole = micro / 1_000_000n;
  const frac = (micro % 1_000_000n).toString().padStart(6, '0');
  return `${whole}.${frac}`;
}

/**
 * Shares an IVA-included amount taken off a sale among its lines in proportion to their totals, to the centavo
 * (largest remainder, ties to the earlier line): what each line gives up of `takenCents`.
 */
export function shareOut(totalsCents: readonly number[], takenCents: number): number[] {
  const whole = totalsCents.reduce((sum, t) => sum + t, 0);
  if (takenCents <= 0 || whole <= 0) return totalsCents.map(() => 0);
  if (takenCents >= whole) return [...totalsCents];
  const exact = totalsCents.map((t) => (BigInt(t) * BigInt(takenCents) * 1_000_000n) / BigInt(whole));
  const shares = exact.map((e) => Number(e / 1_000_000n));
  let left = takenCents - shares.reduce((sum, s) => sum + s, 0);
  const byRemainder = exact
    .map((e, i) => ({ i, r: e % 1_000_000n }))
    .sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of byRemainder) {
    if (left === 0) break;
    if (shares[i]! < totalsCents[i]!) {
      shares[i]! += 1;
      left -= 1;
    }
  }
  return shares;
}

/**
 * The CFDI's amounts for lines at their IVA-included prices. `discountCents` (IVA included): what was given back of
 * the sale before it was invoiced (a partial refund, decision 056): shared out among the lines (shareOut) and
 * stated as each concept's Descuento — Importe stays the line's value, the IVA is that of what was charged, and
 * the Total is what the shop kept. A line given back whole is left out.
 */
export function computeCfdiAmounts(
  sources: ConceptSource[],
  options: { discountCents?: number } = {},
): CfdiAmounts {
  const lines = sources.filter((s) => s.quantity > 0 && s.unitPriceCents > 0);
  for (const s of lines) {
    if (!Number.isSafeInteger(s.quantity) || !Number.isSafeInteger(s.unitPriceCents)) {
      throw new RangeError('cantidad o precio inválidos');
    }
  }
  const totals = lines.map((s) => s.unitPriceCents * s.quantity);
  const taken = shareOut(totals, options.discountCents ?? 0);
  const concepts = lines
    .map((s, i): ConceptAmounts => {
      const totalCents = totals[i]!;
      const chargedCents = totalCents - taken[i]!;
      const baseCents = baseOfIvaIncluded(totalCents);
      const taxBaseCents = baseOfIvaIncluded(chargedCents);
      return {
        ...s,
        totalCents,
        baseCents,
        discountCents: baseCents - taxBaseCents,
        taxBaseCents,
        ivaCents: includedIva(chargedCents),
        unitValue: unitValueOf(baseCents, s.quantity),
      };
    })
    .filter((c) => c.taxBaseCents > 0);
  const subtotalCents = concepts.reduce((sum, c) => sum + c.baseCents, 0);
  const discountCents = concepts.reduce((sum, c) => sum + c.discountCents, 0);
  const taxBaseCents = subtotalCents - discountCents;
  // What each concept charges is its tax base plus its IVA: the IVA of the sale is taken out of those amounts.
  const ivaCents = saleIva(concepts.map((c) => c.taxBaseCents + c.ivaCents));
  return {
    concepts,
    subtotalCents,
    discountCents,
    taxBaseCents,
    ivaCents,
    totalCents: taxBaseCents + ivaCents,
  };
}
