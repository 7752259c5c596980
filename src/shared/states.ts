/**
 * The 32 Mexican states for the shipping address (spec §2): the stored value is what the spec names
 * ('CDMX' for Mexico City, 'Baja California' for Baja California); `sat` is the SAT c_Estado key.
 */
export const MEXICAN_STATES = [
  { value: 'Aguascalientes', label: 'Aguascalientes', sat: 'AGU' },
  { value: 'Baja California', label: 'Baja California', sat: 'BCN' },
  { value: 'Baja California Sur', label: 'Baja California Sur', sat: 'BCS' },
  { value: 'Campeche', label: 'Campeche', sat: 'CAM' },
  { value: 'Chiapas', label: 'Chiapas', sat: 'CHP' },
  { value: 'Chihuahua', label: 'Chihuahua', sat: 'CHH' },
  { value: 'CDMX', label: 'Ciudad de México', sat: 'CMX' },
  { value: 'Coahuila', label: 'Coahuila', sat: 'COA' },
  { value: 'Colima', label: 'Colima', sat: 'COL' },
  { value: 'Durango', label: 'Durango', sat: 'DUR' },
  { value: 'Estado de México', label: 'Estado de México', sat: 'MEX' },
  { value: 'Guanajuato', label: 'Guanajuato', sat: 'GUA' },
  { value: 'Guerrero', label: 'Guerrero', sat: 'GRO' },
  { value: 'Hidalgo', label: 'Hidalgo', sat: 'HID' },
  { value: 'Jalisco', label: 'Jalisco', sat: 'JAL' },
  { value: 'Michoacán', label: 'Michoacán', sat: 'MIC' },
  { value: 'Morelos', label: 'Morelos', sat: 'MOR' },
  { value: 'Nayarit', label: 'Nayarit', sat: 'NAY' },
  { value: 'Nuevo León', label: 'Nuevo León', sat: 'NLE' },
  { value: 'Oaxaca', label: 'Oaxaca', sat: 'OAX' },
  { value: 'Puebla', label: 'Puebla', sat: 'PUE' },
  { value: 'Querétaro', label: 'Querétaro', sat: 'QUE' },
  { value: 'Quintana Roo', label: 'Quintana Roo', sat: 'ROO' },
  { value: 'San Luis Potosí', label: 'San Luis Potosí', sat: 'SLP' },
  { value: 'Sinaloa', label: 'Sinaloa', sat: 'SIN' },
  { value: 'Sonora', label: 'Sonora', sat: 'SON' },
  { value: 'Tabasco', label: 'Tabasco', sat: 'TAB' },
  { value: 'Tamaulipas', label: 'Tamaulipas', sat: 'TAM' },
  { value: 'Tlaxcala', label: 'Tlaxcala', sat: 'TLA' },
  { value: 'Veracruz', label: 'Veracruz', sat: 'VER' },
  { value: 'Yucatán', label: 'Yucatán', sat: 'YUC' },
  { value: 'Zacatecas', label: 'Zacatecas', sat: 'ZAC' },
] as const;

export type MexicanState = (typeof MEXICAN_STATES)[number]['value'];

export const STATE_VALUES = MEXICAN_STATES.map((s) => s.value) as [MexicanState, ...MexicanState[]];

/** The shipping country is fixed (spec §3). */
export const COUNTRY = 'México';
