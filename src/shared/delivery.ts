/**
 * How an order reaches the buyer (issue 35, decision 061): parcel by ground, parcel by air (express), or
 * 'Recoger en sucursal' at one of the branches of /sucursales. Which ways a cart may use is decided by the
 * hazardous-goods table below — the cart, the checkout and the server read the same function.
 */
export const DELIVERY_METHODS = ['ground', 'air', 'pickup'] as const;
export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

export const DELIVERY_METHOD_LABELS: Record<DeliveryMethod, string> = {
  ground: 'Paquetería terrestre',
  air: 'Paquetería aérea (express)',
  pickup: 'Recoger en sucursal',
};

/**
 * Hazard classes whose transport the shop restricts, by the H statements that put a substance in them (GHS rev. 8
 * as in src/shared/ghs.ts). `forbids` names the ways the class may not travel:
 * - 'air': no parcel by air. The UN Model Regulations classes 1–8 are dangerous goods for air (IATA DGR, ICAO
 *   Technical Instructions): the express carriers take them only under a dangerous-goods contract with a trained
 *   shipper, which the shop does not have; by road they go as limited quantities (NOM-002-SCT-2011 and the
 *   Reglamento para el Transporte Terrestre de Materiales y Residuos Peligrosos).
 * - 'ground' too: explosives, pyrophoric and self-heating substances and those that give off flammable gas in
 *   contact with water are refused by the parcel carriers whatever the service (their prohibited-items lists): they
 *   are collected at a branch only.
 * Sources: UN, Recommendations on the Transport of Dangerous Goods, Model Regulations, rev. 23 (2023), Part 2
 * (classes); GHS rev. 8, annex 1 (which H statement goes with which class); IATA Dangerous Goods Regulations §2;
 * SCT, NOM-002-SCT-2011.
 */
export const HAZARD_TRANSPORT_CLASSES = [
  {
    id: 'explosive',
    name: 'explosivo',
    unClass: '1',
    codes: ['H200', 'H201', 'H202', 'H203', 'H204', 'H205', 'H240', 'H241'],
    forbids: ['air', 'ground'],
  },
  {
    id: 'flammable_gas',
    name: 'gas o aerosol inflamable',
    unClass: '2.1',
    codes: ['H220', 'H221', 'H222', 'H223', 'H230', 'H231', 'H232'],
    forbids: ['air'],
  },
  { id: 'pressurised_gas', name: 'gas a presión', unClass: '2.2', codes: ['H280', 'H281'], forbids: ['air'] },
  {
    id: 'flammable_liquid',
    name: 'líquido inflamable',
    unClass: '3',
    codes: ['H224', 'H225', 'H226'],
    forbids: ['air'],
  },
  {
    id: 'flammable_solid',
    name: 'sólido inflamable o autorreactivo',
    unClass: '4.1',
    codes: ['H228', 'H242'],
    forbids: ['air'],
  },
  {
    id: 'pyrophoric',
    name: 'pirofórico o que se calienta espontáneamente',
    unClass: '4.2',
    codes: ['H250', 'H251', 'H252'],
    forbids: ['air', 'ground'],
  },
  {
    id: 'water_reactive',
    name: 'desprende gases inflamables con el agua',
    unClass: '4.3',
    codes: ['H260', 'H261'],
    forbids: ['air', 'ground'],
  },
  {
    id: 'oxidizer',
    name: 'comburente (oxidante)',
    unClass: '5.1',
    codes: ['H270', 'H271', 'H272'],
    forbids: ['air'],
  },
  {
    id: 'toxic',
    name: 'tóxico agudo',
    unClass: '6.1',
    codes: ['H300', 'H301', 'H310', 'H311', 'H330', 'H331'],
    forbids: ['air'],
  },
  { id: 'corrosive', name: 'corrosivo', unClass: '8', codes: ['H290', 'H314'], forbids: ['air'] },
] as const satisfies readonly {
  id: string;
  name: string;
  unClass: string;
  codes: readonly string[];
  forbids: readonly ('air' | 'ground')[];
}[];

export type HazardClass = (typeof HAZARD_TRANSPORT_CLASSES)[number];

/** The restricted classes of a substance's H statements (combined ones, 'H300+H310', count each part). */
export function hazardClassesOf(hazardStatements: readonly string[]): HazardClass[] {
  const codes = new Set(hazardStatements.flatMap((h) => h.split('+')));
  return HAZARD_TRANSPORT_CLASSES.filter((c) => c.codes.some((code) => codes.has(code)));
}

export type DeliveryOption = {
  method: DeliveryMethod;
  label: string;
  /** Why the method is not offered for this cart ('Ácido clorhídrico es corrosivo: no viaja por avión'); null: offered. */
  refusal: string | null;
};

/** The ways a cart may travel, each with the reason when it may not (one rule for the cart, checkout and server). */
export function deliveryOptions(
  lines: readonly { name: string; hazardStatements: readonly string[] }[],
): DeliveryOption[] {
  const refusal = (method: 'air' | 'ground'): string | null => {
    for (const line of lines) {
      const cls = hazardClassesOf(line.hazardStatements).find((c) =>
        (c.forbids as readonly string[]).includes(method),
      );
      if (cls)
        return method === 'air'
          ? `${line.name} es ${cls.name} (clase ONU ${cls.unClass}): no puede enviarse por avión`
          : `${line.name} es ${cls.name} (clase ONU ${cls.unClass}): las paqueterías no lo transportan; solo puede recogerse en sucursal`;
    }
    return null;
  };
  const ground = refusal('ground');
  return [
    { method: 'ground', label: DELIVERY_METHOD_LABELS.ground, refusal: ground },
    { method: 'air', label: DELIVERY_METHOD_LABELS.air, refusal: ground ?? refusal('air') },
    { method: 'pickup', label: DELIVERY_METHOD_LABELS.pickup, refusal: null },
  ];
}

/** Whether any line belongs to a restricted class (the quote adds the hazardous surcharge to a parcel). */
export const anyHazardous = (lines: readonly { hazardStatements: readonly string[] }[]) =>
  lines.some((l) => hazardClassesOf(l.hazardStatements).length > 0);

/** A 6-character pickup code without letters that read alike (0/O, 1/I/L). */
export const PICKUP_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
