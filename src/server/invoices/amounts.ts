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
  /** IVA-included line total in centavos (unit price × quantity). */
  totalCents: number;
  /** Importe = Base of the IVA Traslado, in centavos. */
  baseCents: number;
  ivaCents: number;
  /** ValorUnitario with six decimals (text), so that Cantidad × ValorUnitario ≈ Importe. */
  unitValue: string;
};

export type CfdiAmounts = {
  concepts: ConceptAmounts[];
  subtotalCents: number;
  ivaCents: number;
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

export function computeCfdiAmounts(sources: ConceptSource[]): CfdiAmounts {
  const concepts = sources
    .filter((s) => s.quantity > 0 && s.unitPriceCents > 0)
    .map((s): ConceptAmounts => {
      if (!Number.isSafeInteger(s.quantity) || !Number.isSafeInteger(s.unitPriceCents)) {
        throw new RangeError('cantidad o precio inválidos');
      }
      const totalCents = s.unitPriceCents * s.quantity;
      const baseCents = baseOfIvaIncluded(totalCents);
      return {
        ...s,
        totalCents,
        baseCents,
        ivaCents: includedIva(totalCents),
        unitValue: unitValueOf(baseCents, s.quantity),
      };
    });
  const subtotalCents = concepts.reduce((sum, c) => sum + c.baseCents, 0);
  const ivaCents = saleIva(concepts.map((c) => c.totalCents));
  return { concepts, subtotalCents, ivaCents, totalCents: subtotalCents + ivaCents };
}
