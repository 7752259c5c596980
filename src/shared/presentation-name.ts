/**
 * A presentation's name as the buyer reads it on the cart, the quick order, the lists, the order and the CFDI:
 * the product's name and its presentation ('Acetona grado ACS, 4 L'); the name alone without one (decision 021).
 */
export const presentationName = (p: { name: string; presentationLabel: string | null }): string =>
  p.presentationLabel ? `${p.name}, ${p.presentationLabel}` : p.name;
