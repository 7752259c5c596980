/**
 * SAT keys (c_ClaveProdServ, c_ClaveUnidad) of the demo catalogue, per sub-group: each kind of product
 * under its own class of SAT's catalogue (which follows UNSPSC), not the catch-all default of
 * config/shop.json. Class-level keys (ending in 00) are valid c_ClaveProdServ entries. The choice and
 * its check are in docs/decisions/015. Units: H87 Pieza, XBX Caja, XPK Paquete.
 */
export type SatKeys = { productKey: string; unitKey: string };

export const DEMO_SAT_KEYS: Record<string, SatKeys> = {
  // Material de vidrio: laboratory glassware and plasticware (41121800); pipettes and burettes (41121500).
  'VID-MAT': { productKey: '41121800', unitKey: 'H87' },
  'VID-VAS': { productKey: '41121800', unitKey: 'H87' },
  'VID-PRO': { productKey: '41121800', unitKey: 'H87' },
  'VID-PIP': { productKey: '41121500', unitKey: 'H87' },
  // Equipo: weight measuring instruments (41111500), laboratory centrifuges (41103900), mixing, stirring and
  // shaking equipment (41103800), heating and drying equipment (41102400).
  'EQU-BAL': { productKey: '41111500', unitKey: 'H87' },
  'EQU-CEN': { productKey: '41103900', unitKey: 'H87' },
  'EQU-PAR': { productKey: '41103800', unitKey: 'H87' },
  'EQU-EST': { productKey: '41102400', unitKey: 'H87' },
  // Reactivos: inorganic compounds (12352300: HCl, H2SO4, HNO3, NaOH, NaCl, CuSO4), organic derivatives
  // (12352100: acetic acid, phenolphthalein), non-hydrocarbon solvents (12191500: ethanol, acetone, methanol).
  'REA-ACI': { productKey: '12352300', unitKey: 'H87' },
  'REA-BAS': { productKey: '12352300', unitKey: 'H87' },
  'REA-SOL': { productKey: '12191500', unitKey: 'H87' },
  'REA-IND': { productKey: '12352100', unitKey: 'H87' },
  // Medición: liquid, solid and elemental analyzers (41113300: pH and conductivity meters), temperature
  // measuring instruments (41112200), spectroscopic equipment (41115400).
  'MED-PHM': { productKey: '41113300', unitKey: 'H87' },
  'MED-TER': { productKey: '41112200', unitKey: 'H87' },
  'MED-ESP': { productKey: '41115400', unitKey: 'H87' },
  'MED-CON': { productKey: '41113300', unitKey: 'H87' },
  // Plásticos: pipette tips (41121600), test tubes (41121700), bottles, wash bottles and racks (41121800).
  'PLA-PUN': { productKey: '41121600', unitKey: 'XBX' },
  'PLA-TUB': { productKey: '41121700', unitKey: 'XPK' },
  'PLA-FRA': { productKey: '41121800', unitKey: 'H87' },
  'PLA-GRA': { productKey: '41121800', unitKey: 'H87' },
  // Seguridad: protective gloves (46181504), eye and face protection (46181800), protective apparel (46181500).
  // SEG-REG (eye-wash stations) has no key on purpose: it shows how staff find products on the fallback.
  'SEG-GUA': { productKey: '46181504', unitKey: 'XBX' },
  'SEG-LEN': { productKey: '46181800', unitKey: 'H87' },
  'SEG-BAT': { productKey: '46181500', unitKey: 'H87' },
  // Microbiología: Petri dishes and loops (41121800). MIC-MED (culture media) has no key: fallback.
  'MIC-PET': { productKey: '41121800', unitKey: 'XPK' },
  'MIC-ASA': { productKey: '41121800', unitKey: 'XPK' },
  // Consumibles: filter paper (41104900, laboratory filtering), syringes and syringe filters (41104900),
  // vials (41121800).
  'CON-PAP': { productKey: '41104900', unitKey: 'XPK' },
  'CON-JER': { productKey: '41104900', unitKey: 'XBX' },
  'CON-VIA': { productKey: '41121800', unitKey: 'XPK' },
};

/** The keys of a demo sub-group; undefined = the product uses the config fallback (and staff see it listed). */
export const demoSatKeys = (groupClas: string): SatKeys | undefined => DEMO_SAT_KEYS[groupClas];
