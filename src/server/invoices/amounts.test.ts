import { describe, expect, it } from 'vitest';
import { baseOfIvaIncluded } from '../../shared/money.ts';
import { centsToDecimal, computeCfdiAmounts, unitValueOf } from './amounts.ts';
import { buildComprobante } from './cfdi.ts';

/** Small deterministic PRNG (mulberry32), so a failure can be replayed from its seed. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const toCents = (decimal: string) => {
  const [whole = '0', frac = '0'] = decimal.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0').slice(0, 2));
};
/** Decimal text → millionths (exact, BigInt). */
const toMicro = (decimal: string) => {
  const [whole = '0', frac = ''] = decimal.split('.');
  return BigInt(whole) * 1_000_000n + BigInt(frac.padEnd(6, '0').slice(0, 6));
};

function randomOrder(next: () => number) {
  const lines = Array.from({ length: 1 + Math.floor(next() * 12) }, (_, i) => ({
    productKey: '41116500',
    unitKey: 'H87',
    code: `P-${i}`,
    description: `Producto ${i}`,
    quantity: 1 + Math.floor(next() * (next() < 0.2 ? 500 : 12)),
    // Prices from $0.01 to ~$250,000, biased towards odd centavos.
    unitPriceCents: 1 + Math.floor(next() ** 3 * 25_000_000),
  }));
  const shipping = next() < 0.15 ? 0 : 30_000 + Math.floor(next() * 40) * 3_000;
  const sources = shipping
    ? [
        ...lines,
        {
          productKey: '78102203',
          unitKey: 'E48',
          code: null,
          description: 'Envío',
          quantity: 1,
          unitPriceCents: shipping,
        },
      ]
    : lines;
  const orderTotal = lines.reduce((s, l) => s + l.unitPriceCents * l.quantity, 0) + shipping;
  return { sources, orderTotal };
}

describe('IVA taken out of IVA-included prices', () => {
  it('round(total / 1.16) half up, computed in integers', () => {
    expect(baseOfIvaIncluded(116)).toBe(100);
    expect(baseOfIvaIncluded(1)).toBe(1); // 0.862 → 1
    expect(baseOfIvaIncluded(58)).toBe(50);
    expect(baseOfIvaIncluded(29)).toBe(25); // 25.0 exactly
    expect(baseOfIvaIncluded(30000)).toBe(25862); // $300.00 shipping → $258.62 + $41.38
    expect(centsToDecimal(25862)).toBe('258.62');
    expect(centsToDecimal(5)).toBe('0.05');
    expect(unitValueOf(49135, 3)).toBe('163.783333');
    expect(unitValueOf(2, 3)).toBe('0.006667');
  });

  it('over 5,000 random orders: Σ conceptos + IVA = the order total to the centavo, within SAT tolerances', () => {
    const problems: string[] = [];
    let checked = 0;
    for (let seed = 1; seed <= 5_000; seed++) {
      const next = rng(seed);
      const { sources, orderTotal } = randomOrder(next);
      const amounts = computeCfdiAmounts(sources);
      const c = buildComprobante({
        amounts,
        emisor: { rfc: 'EKU9003173C9', nombre: 'ESCUELA KEMPER URGATE', regimenFiscal: '601' },
        lugarExpedicion: '86035',
        receptor: {
          rfc: 'LQB150101AB3',
          nombre: 'LABORATORIOS',
          regimenFiscal: '601',
          domicilioFiscal: '44100',
          usoCfdi: 'G03',
        },
        formaPago: '04',
        issuedAt: new Date('2025-01-01T12:00:00Z'),
        csd: { certificateNumber: '30001000000500003416', certificateBase64: 'MII' },
      });
      const fail = (what: string) => problems.push(`seed ${seed}: ${what}`);
      // The CFDI's own arithmetic, on the decimal texts it will carry.
      const subTotal = toCents(c.subTotal);
      const iva = toCents(c.impuestos.totalTrasladados);
      if (subTotal + iva !== orderTotal)
        fail(`SubTotal ${c.subTotal} + IVA ${c.impuestos.totalTrasladados} ≠ ${orderTotal}`);
      if (toCents(c.total) !== orderTotal) fail(`Total ${c.total} ≠ ${orderTotal}`);
      if (c.conceptos.reduce((s, k) => s + toCents(k.importe), 0) !== subTotal) fail('Σ Importe ≠ SubTotal');
      if (c.conceptos.reduce((s, k) => s + toCents(k.traslado.importe), 0) !== iva) fail('Σ IVA ≠ total IVA');
      if (toCents(c.impuestos.base) !== subTotal) fail('Base global ≠ SubTotal');
      for (const k of c.conceptos) {
        const base = toCents(k.traslado.base);
        const tax = toCents(k.traslado.importe);
        // SAT: Importe of a Traslado within [(Base − 0.005)·0.16 truncated, (Base + 0.005)·0.16 rounded up].
        if (tax < Math.floor((base - 0.5) * 0.16) || tax > Math.ceil((base + 0.5) * 0.16)) {
          fail(`IVA ${k.traslado.importe} outside tolerance of Base ${k.traslado.base}`);
        }
        // SAT: Importe within Cantidad × ValorUnitario ± half a unit of their last decimals.
        const product = BigInt(k.cantidad) * toMicro(k.valorUnitario); // millionths
        const importe = toMicro(k.importe);
        const tolerance = BigInt(k.cantidad) / 2n + 5_000n; // ½·10⁻⁶·Cantidad + ½ centavo
        const diff = product > importe ? product - importe : importe - product;
        if (diff > tolerance) fail(`${k.cantidad} × ${k.valorUnitario} vs ${k.importe}`);
      }
      checked += c.conceptos.length;
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(30_000);
  });

  it('leaves out free lines (a CFDI Base must be positive)', () => {
    const amounts = computeCfdiAmounts([
      { productKey: '41116500', unitKey: 'H87', code: 'A', description: 'A', quantity: 1, unitPriceCents: 0 },
      {
        productKey: '41116500',
        unitKey: 'H87',
        code: 'B',
        description: 'B',
        quantity: 2,
        unitPriceCents: 116,
      },
    ]);
    expect(amounts.concepts.map((c) => c.code)).toEqual(['B']);
    expect(amounts).toMatchObject({ subtotalCents: 200, ivaCents: 32, totalCents: 232 });
  });
});

describe('an invoice for what was kept: the part given back as Descuento (decision 056)', () => {
  it('over 2,000 random orders and refunds: Total = what was kept, Descuento = Σ of the concepts’, Base = Importe − Descuento, IVA inside the SAT’s limits', () => {
    const next = rng(52);
    for (let n = 0; n < 2_000; n++) {
      const { sources, orderTotal } = randomOrder(next);
      const given = 1 + Math.floor(next() * (orderTotal - 1));
      const a = computeCfdiAmounts(sources, { discountCents: given });
      const seed = `orden ${n}: total ${orderTotal}, devuelto ${given}`;
      expect(a.totalCents, seed).toBe(orderTotal - given);
      expect(a.discountCents, seed).toBe(a.concepts.reduce((s, c) => s + c.discountCents, 0));
      expect(a.taxBaseCents, seed).toBe(a.subtotalCents - a.discountCents);
      expect(a.totalCents, seed).toBe(a.subtotalCents - a.discountCents + a.ivaCents);
      for (const c of a.concepts) {
        expect(c.discountCents, seed).toBeGreaterThanOrEqual(0);
        expect(c.taxBaseCents, seed).toBeGreaterThan(0);
        expect(c.taxBaseCents, seed).toBe(c.baseCents - c.discountCents);
        // Anexo 20's limits for the Traslado's Importe: Base × 0.16 within half a centavo's rounding each way.
        const exact = c.taxBaseCents * 0.16;
        expect(Math.abs(c.ivaCents - exact), seed).toBeLessThanOrEqual(0.5 + 0.16 * 0.5 + 1e-9);
      }
    }
  });

  it('nothing given back: the amounts are those of the whole sale', () => {
    const { sources, orderTotal } = randomOrder(rng(7));
    const whole = computeCfdiAmounts(sources);
    expect(whole.totalCents).toBe(orderTotal);
    expect(whole.discountCents).toBe(0);
    expect(computeCfdiAmounts(sources, { discountCents: 0 })).toEqual(whole);
  });
});
