/**
 * Real lab queries with the results a shopper expects from the demo catalogue (issue 18, decision 020): the
 * fixture the search is measured on (search-queries.test.ts prints precision per similarity threshold) and
 * held to. Reagents carry CAS numbers and formulas only through REAGENT_FIXTURE (the demo catalogue's own
 * reagent data belongs to issue 19).
 *
 * expect: `name` — every product on the first page (20), or its first `top`, has a matching name; `code` — the first product has that
 * code; `codePrefix` — every product on the first page has a code starting so; `none` — nothing is found (no
 * plausible correction: showing unrelated products would be a lie).
 */
export type Expectation =
  | { name: RegExp; top?: number }
  | { code: string }
  | { codePrefix: string }
  | { none: true };

export type FixtureQuery = {
  q: string;
  kind:
    | 'typo'
    | 'accent'
    | 'plural'
    | 'code'
    | 'partial code'
    | 'english'
    | 'cas'
    | 'formula'
    | 'synonym'
    | 'unknown';
  expect: Expectation;
};

/** CAS numbers and formulas the test gives the demo reagents (real values, check digits verified). */
export const REAGENT_FIXTURE: { namePrefix: string; cas: string; formula: string }[] = [
  { namePrefix: 'Ácido clorhídrico', cas: '7647-01-0', formula: 'HCl' },
  { namePrefix: 'Ácido sulfúrico', cas: '7664-93-9', formula: 'H2SO4' },
  { namePrefix: 'Ácido nítrico', cas: '7697-37-2', formula: 'HNO3' },
  { namePrefix: 'Ácido acético', cas: '64-19-7', formula: 'CH3COOH' },
  { namePrefix: 'Hidróxido de sodio', cas: '1310-73-2', formula: 'NaOH' },
  { namePrefix: 'Cloruro de sodio', cas: '7647-14-5', formula: 'NaCl' },
  { namePrefix: 'Sulfato de cobre', cas: '7758-99-8', formula: 'CuSO₄·5H₂O' },
  { namePrefix: 'Etanol', cas: '64-17-5', formula: 'C2H5OH' },
  { namePrefix: 'Acetona', cas: '67-64-1', formula: 'C3H6O' },
  { namePrefix: 'Metanol', cas: '67-56-1', formula: 'CH3OH' },
];

export const SEARCH_QUERIES: FixtureQuery[] = [
  // Typos
  { q: 'balansa', kind: 'typo', expect: { name: /^Balanza/ } },
  { q: 'matras', kind: 'typo', expect: { name: /^Matraz/ } },
  { q: 'sentrifuga', kind: 'typo', expect: { name: /^(Micro)?[Cc]entrífuga/ } },
  { q: 'erlenmayer', kind: 'typo', expect: { name: /Erlenmeyer/ } },
  { q: 'kitazato', kind: 'typo', expect: { name: /Kitasato/ } },
  { q: 'fenoftaleina', kind: 'typo', expect: { name: /^Fenolftaleína/ } },
  { q: 'guantes nitrlo', kind: 'typo', expect: { name: /^Guantes de nitrilo/ } },
  { q: 'termometro digitl', kind: 'typo', expect: { name: /^Termómetro digital/ } },
  { q: 'espectrofotometo', kind: 'typo', expect: { name: /^Espectrofotómetro/ } },
  { q: 'incuvadora', kind: 'typo', expect: { name: /^Incubadora/ } },
  // Accents, case
  { q: 'acido clorhidrico', kind: 'accent', expect: { name: /^Ácido clorhídrico/ } },
  { q: 'ÁCIDO NÍTRICO', kind: 'accent', expect: { name: /^Ácido nítrico/ } },
  // The pH buffers follow (their description: 'para calibración de potenciómetros'), ranked after the meters.
  { q: 'potenciometro', kind: 'accent', expect: { name: /^Potenciómetro/, top: 5 } },
  { q: 'centrífuga de mesa', kind: 'accent', expect: { name: /^Centrífuga de mesa/ } },
  { q: 'bano maria', kind: 'accent', expect: { name: /^Baño maría/ } },
  // Plurals
  { q: 'balanzas', kind: 'plural', expect: { name: /^Balanza/ } },
  { q: 'pipetas volumetricas', kind: 'plural', expect: { name: /^Pipeta volumétrica/ } },
  { q: 'cajas petri', kind: 'plural', expect: { name: /^Caja Petri/ } },
  { q: 'probetas', kind: 'plural', expect: { name: /^Probeta/ } },
  { q: 'buretas', kind: 'plural', expect: { name: /^Bureta/ } },
  // Codes, in any case
  { q: 'LBN-10001', kind: 'code', expect: { code: 'LBN-10001' } },
  { q: 'crx-10000', kind: 'code', expect: { code: 'CRX-10000' } },
  { q: ' Anx-10003 ', kind: 'code', expect: { code: 'ANX-10003' } },
  // Partial codes
  { q: 'LBN-1000', kind: 'partial code', expect: { codePrefix: 'LBN-1000' } },
  { q: 'crx-1012', kind: 'partial code', expect: { codePrefix: 'CRX-1012' } },
  // English
  { q: 'ethanol', kind: 'english', expect: { name: /^Etanol/ } },
  { q: 'acetone', kind: 'english', expect: { name: /^Acetona/ } },
  { q: 'beaker', kind: 'english', expect: { name: /^Vaso de precipitado/ } },
  { q: 'gloves', kind: 'english', expect: { name: /^Guantes/ } },
  { q: 'sulfuric acid', kind: 'english', expect: { name: /^Ácido sulfúrico/ } },
  { q: 'petri dish', kind: 'english', expect: { name: /^Caja Petri/ } },
  { q: 'centrifuge', kind: 'english', expect: { name: /^(Micro)?[Cc]entrífuga/ } },
  // CAS numbers
  { q: '7664-93-9', kind: 'cas', expect: { name: /^Ácido sulfúrico/ } },
  { q: '1310-73-2', kind: 'cas', expect: { name: /^Hidróxido de sodio/ } },
  { q: '64-17-5', kind: 'cas', expect: { name: /^Etanol/ } },
  { q: '7664-93-8', kind: 'cas', expect: { none: true } },
  // Formulas
  { q: 'H2SO4', kind: 'formula', expect: { name: /^Ácido sulfúrico/ } },
  { q: 'naoh', kind: 'formula', expect: { name: /^Hidróxido de sodio/ } },
  { q: 'HCl', kind: 'formula', expect: { name: /^Ácido clorhídrico/ } },
  { q: 'CuSO4·5H2O', kind: 'formula', expect: { name: /^Sulfato de cobre/ } },
  // Synonyms: common, trade and English names
  { q: 'ácido muriático', kind: 'synonym', expect: { name: /^Ácido clorhídrico/ } },
  { q: 'sosa caustica', kind: 'synonym', expect: { name: /^Hidróxido de sodio/ } },
  { q: 'alcohol etílico', kind: 'synonym', expect: { name: /^Etanol/ } },
  { q: 'piseta', kind: 'synonym', expect: { name: /^Pizeta/ } },
  { q: 'phmetro', kind: 'synonym', expect: { name: /^Potenciómetro/, top: 5 } },
  // Nothing in the catalogue is like these: nothing must be shown
  { q: 'permanganato', kind: 'unknown', expect: { none: true } },
  { q: 'permanganato de potasio', kind: 'unknown', expect: { none: true } },
  { q: 'osciloscopio', kind: 'unknown', expect: { none: true } },
  { q: 'tolueno', kind: 'unknown', expect: { none: true } },
  { q: 'xilol', kind: 'unknown', expect: { none: true } },
  // A plausible correction, said so on the page: 'cromatografía' is in the descriptions of chromatography
  // consumables (vials with septa, HPLC-grade solvents) — not a chromatograph, but related and labelled.
  {
    q: 'cromatografo',
    kind: 'typo',
    expect: { name: /^(Viales|Etanol absoluto grado HPLC|Metanol grado HPLC)/ },
  },
];
