/**
 * The 32 Mexican states for the shipping address (spec §2): the stored value is what the spec names
 * ('CDMX' for Mexico City, 'Baja California' for Baja California); `sat` is the SAT c_Estado key;
 * `postalPrefixes` the first two digits of its postal codes, both ends included (SEPOMEX assigns 01–16 to Mexico
 * City's alcaldías and 20–99 to the states in alphabetical order; 00, 17, 18 and 19 are used by none: decision 048).
 */
export const MEXICAN_STATES = [
  { value: 'Aguascalientes', label: 'Aguascalientes', sat: 'AGU', postalPrefixes: [20, 20] },
  { value: 'Baja California', label: 'Baja California', sat: 'BCN', postalPrefixes: [21, 22] },
  { value: 'Baja California Sur', label: 'Baja California Sur', sat: 'BCS', postalPrefixes: [23, 23] },
  { value: 'Campeche', label: 'Campeche', sat: 'CAM', postalPrefixes: [24, 24] },
  { value: 'Chiapas', label: 'Chiapas', sat: 'CHP', postalPrefixes: [29, 30] },
  { value: 'Chihuahua', label: 'Chihuahua', sat: 'CHH', postalPrefixes: [31, 33] },
  { value: 'CDMX', label: 'Ciudad de México', sat: 'CMX', postalPrefixes: [1, 16] },
  { value: 'Coahuila', label: 'Coahuila', sat: 'COA', postalPrefixes: [25, 27] },
  { value: 'Colima', label: 'Colima', sat: 'COL', postalPrefixes: [28, 28] },
  { value: 'Durango', label: 'Durango', sat: 'DUR', postalPrefixes: [34, 35] },
  { value: 'Estado de México', label: 'Estado de México', sat: 'MEX', postalPrefixes: [50, 57] },
  { value: 'Guanajuato', label: 'Guanajuato', sat: 'GUA', postalPrefixes: [36, 38] },
  { value: 'Guerrero', label: 'Guerrero', sat: 'GRO', postalPrefixes: [39, 41] },
  { value: 'Hidalgo', label: 'Hidalgo', sat: 'HID', postalPrefixes: [42, 43] },
  { value: 'Jalisco', label: 'Jalisco', sat: 'JAL', postalPrefixes: [44, 49] },
  { value: 'Michoacán', label: 'Michoacán', sat: 'MIC', postalPrefixes: [58, 61] },
  { value: 'Morelos', label: 'Morelos', sat: 'MOR', postalPrefixes: [62, 62] },
  { value: 'Nayarit', label: 'Nayarit', sat: 'NAY', postalPrefixes: [63, 63] },
  { value: 'Nuevo León', label: 'Nuevo León', sat: 'NLE', postalPrefixes: [64, 67] },
  { value: 'Oaxaca', label: 'Oaxaca', sat: 'OAX', postalPrefixes: [68, 71] },
  { value: 'Puebla', label: 'Puebla', sat: 'PUE', postalPrefixes: [72, 75] },
  { value: 'Querétaro', label: 'Querétaro', sat: 'QUE', postalPrefixes: [76, 76] },
  { value: 'Quintana Roo', label: 'Quintana Roo', sat: 'ROO', postalPrefixes: [77, 77] },
  { value: 'San Luis Potosí', label: 'San Luis Potosí', sat: 'SLP', postalPrefixes: [78, 79] },
  { value: 'Sinaloa', label: 'Sinaloa', sat: 'SIN', postalPrefixes: [80, 82] },
  { value: 'Sonora', label: 'Sonora', sat: 'SON', postalPrefixes: [83, 85] },
  { value: 'Tabasco', label: 'Tabasco', sat: 'TAB', postalPrefixes: [86, 86] },
  { value: 'Tamaulipas', label: 'Tamaulipas', sat: 'TAM', postalPrefixes: [87, 89] },
  { value: 'Tlaxcala', label: 'Tlaxcala', sat: 'TLA', postalPrefixes: [90, 90] },
  { value: 'Veracruz', label: 'Veracruz', sat: 'VER', postalPrefixes: [91, 96] },
  { value: 'Yucatán', label: 'Yucatán', sat: 'YUC', postalPrefixes: [97, 97] },
  { value: 'Zacatecas', label: 'Zacatecas', sat: 'ZAC', postalPrefixes: [98, 99] },
] as const;

export type MexicanState = (typeof MEXICAN_STATES)[number]['value'];

export const STATE_VALUES = MEXICAN_STATES.map((s) => s.value) as [MexicanState, ...MexicanState[]];

/** The shipping country is fixed (spec §3). */
export const COUNTRY = 'México';

/**
 * Whether a 5-digit postal code can exist: its first two digits belong to a state's range. Without SAT's
 * c_CodigoPostal loaded this is the only check of a receptor's CP that can be made (decision 048); it refuses
 * "00000", "17…", "18…" and "19…", and nothing that exists.
 */
export function postalCodeCanExist(cp: string): boolean {
  if (!/^\d{5}$/.test(cp)) return false;
  const prefix = Number(cp.slice(0, 2));
  return MEXICAN_STATES.some(({ postalPrefixes: [from, to] }) => prefix >= from && prefix <= to);
}

export const POSTAL_CODE_CANNOT_EXIST =
  'Ese código postal no existe en México: sus dos primeros dígitos no corresponden a ningún estado. Escriba el de su Constancia de Situación Fiscal';
