/**
 * Controlled chemicals (decision 030): substances under Mexico's «Ley Federal para el Control de Precursores
 * Químicos, Productos Químicos Esenciales y Máquinas para Elaborar Cápsulas, Tabletas y/o Comprimidos» (art. 4:
 * precursores químicos, fracción I; productos químicos esenciales, fracción II). Staff flag each product family
 * (`products.controlled`); ordering one needs a signed-in buyer with an RFC on file and this declaration.
 */

/** What the product page and the cart tell a buyer before they try to order. */
export const CONTROLLED_NOTICE = 'Producto controlado: requiere RFC registrado y declaración de uso final';

/**
 * The declaration the buyer accepts, by version. A new wording gets a new version (never edit an old one): the
 * order keeps the version and the words accepted, and a checkout page showing an older version is refused.
 */
export const DECLARATION_TEXTS = {
  '2026-11-24':
    'Declaro bajo protesta de decir verdad que los productos controlados de este pedido se destinarán ' +
    'exclusivamente al uso final lícito que indico, que no los desviaré ni los entregaré a terceros para la ' +
    'producción de narcóticos o drogas sintéticas, y que conozco las obligaciones y sanciones que establece la Ley ' +
    'Federal para el Control de Precursores Químicos, Productos Químicos Esenciales y Máquinas para Elaborar ' +
    'Cápsulas, Tabletas y/o Comprimidos. Acepto que el vendedor conserve esta declaración con mi RFC y razón ' +
    'social y la entregue a las autoridades competentes que la soliciten.',
} as const;
export type DeclarationVersion = keyof typeof DECLARATION_TEXTS;
export const DECLARATION_VERSION: DeclarationVersion = '2026-11-24';
export const DECLARATION_TEXT = DECLARATION_TEXTS[DECLARATION_VERSION];

export const DECLARED_USE_MIN = 30;
export const DECLARED_USE_MAX = 500;

/**
 * Substances the law names (art. 4, as amended; the 2021 acuerdo added the fentanyl precursors), with their CAS
 * numbers: the demo seed flags its reagents by CAS, and the product editor suggests the flag. Staff decide per
 * product (a mixture or a salt may be controlled too), so this list only helps; it is not the rule.
 */
export const LISTED_SUBSTANCES: readonly { name: string; cas: string }[] = [
  // Productos químicos esenciales
  { name: 'Acetona', cas: '67-64-1' },
  { name: 'Ácido clorhídrico', cas: '7647-01-0' },
  { name: 'Ácido sulfúrico', cas: '7664-93-9' },
  { name: 'Éter etílico', cas: '60-29-7' },
  { name: 'Metil etil cetona', cas: '78-93-3' },
  { name: 'Permanganato de potasio', cas: '7722-64-7' },
  { name: 'Tolueno', cas: '108-88-3' },
  // Precursores químicos
  { name: 'Ácido antranílico', cas: '118-92-3' },
  { name: 'Ácido fenilacético', cas: '103-82-2' },
  { name: 'Ácido lisérgico', cas: '82-58-6' },
  { name: 'Ácido N-acetilantranílico', cas: '89-52-1' },
  { name: 'Anhídrido acético', cas: '108-24-7' },
  { name: 'Anhídrido propiónico', cas: '123-62-6' },
  { name: 'Cloruro de propionilo', cas: '79-03-8' },
  { name: 'Efedrina', cas: '299-42-3' },
  { name: 'Ergometrina', cas: '60-79-7' },
  { name: 'Ergotamina', cas: '113-15-5' },
  { name: '1-Fenil-2-propanona', cas: '103-79-7' },
  { name: 'Isosafrol', cas: '120-58-1' },
  { name: '3,4-Metilendioxifenil-2-propanona', cas: '4676-39-5' },
  { name: 'Norefedrina', cas: '14838-15-4' },
  { name: 'Piperidina', cas: '110-89-4' },
  { name: 'Piperonal', cas: '120-57-0' },
  { name: 'Safrol', cas: '94-59-7' },
  { name: 'Seudoefedrina', cas: '90-82-4' },
];

/** The listed substance with this CAS number, if any. */
export const listedSubstance = (cas: string | null | undefined) =>
  cas ? LISTED_SUBSTANCES.find((s) => s.cas === cas) : undefined;
