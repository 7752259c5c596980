/**
 * Reagent safety facts (decision 027): the nine GHS/SGA pictograms, the signal words, the hazard (H) and
 * precautionary (P) statements with their official Spanish texts, and the grades the shop sells.
 *
 * Texts: the Spanish version of Regulation (EC) 1272/2008 (CLP), Annex III (hazard statements) and Annex IV
 * (precautionary statements) as amended by Regulation (EU) 2019/521 (the 8th revision of the UN GHS, which
 * Mexico adopts through NOM-018-STPS-2015). The codes the UN GHS has and CLP does not (H227, H303, H305, H313,
 * H316, H320, H333, H401, H402) carry the UN GHS Spanish edition's text. Where the official text leaves a blank
 * for the label's author to fill (P378 'Utilizar … para la extinción'), the blank stays '…'; alternatives
 * written with '/' stay as the official list writes them. Staff choose codes; no free text reaches the page.
 */

export const PICTOGRAMS = [
  { code: 'GHS01', name: 'Bomba explotando', meaning: 'explosivo' },
  { code: 'GHS02', name: 'Llama', meaning: 'inflamable' },
  { code: 'GHS03', name: 'Llama sobre un círculo', meaning: 'comburente' },
  { code: 'GHS04', name: 'Botella de gas', meaning: 'gas a presión' },
  { code: 'GHS05', name: 'Corrosión', meaning: 'corrosivo' },
  { code: 'GHS06', name: 'Calavera y tibias cruzadas', meaning: 'toxicidad aguda' },
  { code: 'GHS07', name: 'Signo de exclamación', meaning: 'nocivo o irritante' },
  { code: 'GHS08', name: 'Peligro para la salud', meaning: 'peligro grave para la salud' },
  { code: 'GHS09', name: 'Medio ambiente', meaning: 'peligroso para el medio ambiente acuático' },
] as const;
export type PictogramCode = (typeof PICTOGRAMS)[number]['code'];
export const PICTOGRAM_CODES: readonly PictogramCode[] = PICTOGRAMS.map((p) => p.code);

/** The alt text of a pictogram's image: what it is and what it warns of. */
export function pictogramAlt(code: PictogramCode): string {
  const p = PICTOGRAMS.find((x) => x.code === code)!;
  return `Pictograma ${p.code} (${p.name.toLowerCase()}): ${p.meaning}`;
}

/**
 * The static file of a pictogram (src/client/public/ghs/v1/), served with a year's caching: a redrawn pictogram
 * goes into a new folder (v2), so a cached drawing is never stale under its address.
 */
export const pictogramUrl = (code: PictogramCode) => `/ghs/v1/${code.toLowerCase()}.svg`;

/** Signal words (palabras de advertencia): stored as the key, shown as the Spanish word. */
export const SIGNAL_WORDS = { danger: 'Peligro', warning: 'Atención' } as const;
export type SignalWord = keyof typeof SIGNAL_WORDS;

/**
 * Grades of purity the catalogue uses. `code` is what the import's `grade` column and the admin form take
 * (the name is accepted too); `name` is what the shopper reads.
 */
export const GRADES = [
  { code: 'ACS', name: 'Grado ACS' },
  { code: 'RA', name: 'Reactivo analítico (RA)' },
  { code: 'HPLC', name: 'Grado HPLC' },
  { code: 'ESPECTRO', name: 'Grado espectrofotométrico' },
  { code: 'USP', name: 'Grado USP (farmacopea)' },
  { code: 'FCC', name: 'Grado alimenticio (FCC)' },
  { code: 'BM', name: 'Grado biología molecular' },
  { code: 'QP', name: 'Químicamente puro (QP)' },
  { code: 'TEC', name: 'Grado técnico' },
] as const;
export type GradeCode = (typeof GRADES)[number]['code'];
export const gradeName = (code: string) => GRADES.find((g) => g.code === code)?.name ?? code;

/** Hazard statements (indicaciones de peligro). */
export const HAZARD_STATEMENTS: Readonly<Record<string, string>> = {
  H200: 'Explosivo inestable.',
  H201: 'Explosivo; peligro de explosión en masa.',
  H202: 'Explosivo; grave peligro de proyección.',
  H203: 'Explosivo; peligro de incendio, de onda expansiva o de proyección.',
  H204: 'Peligro de incendio o de proyección.',
  H205: 'Peligro de explosión en masa en caso de incendio.',
  H206: 'Peligro de incendio, de onda expansiva o de proyección; mayor riesgo de explosión si se reduce el agente insensibilizante.',
  H207: 'Peligro de incendio o de proyección; mayor riesgo de explosión si se reduce el agente insensibilizante.',
  H208: 'Peligro de incendio; mayor riesgo de explosión si se reduce el agente insensibilizante.',
  H220: 'Gas extremadamente inflamable.',
  H221: 'Gas inflamable.',
  H222: 'Aerosol extremadamente inflamable.',
  H223: 'Aerosol inflamable.',
  H224: 'Líquido y vapores extremadamente inflamables.',
  H225: 'Líquido y vapores muy inflamables.',
  H226: 'Líquidos y vapores inflamables.',
  H227: 'Líquido combustible.',
  H228: 'Sólido inflamable.',
  H229: 'Recipiente a presión: puede reventar si se calienta.',
  H230: 'Puede explotar incluso en ausencia de aire.',
  H231: 'Puede explotar incluso en ausencia de aire, a presión o temperatura elevadas.',
  H232: 'Puede inflamarse espontáneamente en contacto con el aire.',
  H240: 'Peligro de explosión en caso de calentamiento.',
  H241: 'Peligro de incendio o explosión en caso de calentamiento.',
  H242: 'Peligro de incendio en caso de calentamiento.',
  H250: 'Se inflama espontáneamente en contacto con el aire.',
  H251: 'Se calienta espontáneamente; puede inflamarse.',
  H252: 'Se calienta espontáneamente en grandes cantidades; puede inflamarse.',
  H260: 'En contacto con el agua desprende gases inflamables que pueden inflamarse espontáneamente.',
  H261: 'En contacto con el agua desprende gases inflamables.',
  H270: 'Puede provocar o agravar un incendio; comburente.',
  H271: 'Puede provocar un incendio o una explosión; muy comburente.',
  H272: 'Puede agravar un incendio; comburente.',
  H280: 'Contiene gas a presión; peligro de explosión en caso de calentamiento.',
  H281: 'Contiene un gas refrigerado; puede provocar quemaduras o lesiones criogénicas.',
  H290: 'Puede ser corrosivo para los metales.',
  H300: 'Mortal en caso de ingestión.',
  H301: 'Tóxico en caso de ingestión.',
  H302: 'Nocivo en caso de ingestión.',
  H303: 'Puede ser nocivo en caso de ingestión.',
  H304: 'Puede ser mortal en caso de ingestión y penetración en las vías respiratorias.',
  H305: 'Puede ser nocivo en caso de ingestión y penetración en las vías respiratorias.',
  H310: 'Mortal en contacto con la piel.',
  H311: 'Tóxico en contacto con la piel.',
  H312: 'Nocivo en contacto con la piel.',
  H313: 'Puede ser nocivo en contacto con la piel.',
  H314: 'Provoca quemaduras graves en la piel y lesiones oculares graves.',
  H315: 'Provoca irritación cutánea.',
  H316: 'Provoca una leve irritación cutánea.',
  H317: 'Puede provocar una reacción alérgica en la piel.',
  H318: 'Provoca lesiones oculares graves.',
  H319: 'Provoca irritación ocular grave.',
  H320: 'Provoca irritación ocular.',
  H330: 'Mortal en caso de inhalación.',
  H331: 'Tóxico en caso de inhalación.',
  H332: 'Nocivo en caso de inhalación.',
  H333: 'Puede ser nocivo si se inhala.',
  H334: 'Puede provocar síntomas de alergia o asma o dificultades respiratorias en caso de inhalación.',
  H335: 'Puede irritar las vías respiratorias.',
  H336: 'Puede provocar somnolencia o vértigo.',
  H340: 'Puede provocar defectos genéticos.',
  H341: 'Se sospecha que provoca defectos genéticos.',
  H350: 'Puede provocar cáncer.',
  H350i: 'Puede provocar cáncer por inhalación.',
  H351: 'Se sospecha que provoca cáncer.',
  H360: 'Puede perjudicar a la fertilidad o dañar al feto.',
  H360F: 'Puede perjudicar a la fertilidad.',
  H360D: 'Puede dañar al feto.',
  H360FD: 'Puede perjudicar a la fertilidad. Puede dañar al feto.',
  H360Fd: 'Puede perjudicar a la fertilidad. Se sospecha que daña al feto.',
  H360Df: 'Puede dañar al feto. Se sospecha que perjudica a la fertilidad.',
  H361: 'Se sospecha que perjudica a la fertilidad o daña al feto.',
  H361f: 'Se sospecha que perjudica a la fertilidad.',
  H361d: 'Se sospecha que daña al feto.',
  H361fd: 'Se sospecha que perjudica a la fertilidad. Se sospecha que daña al feto.',
  H362: 'Puede perjudicar a los niños alimentados con leche materna.',
  H370: 'Provoca daños en los órganos.',
  H371: 'Puede provocar daños en los órganos.',
  H372: 'Provoca daños en los órganos tras exposiciones prolongadas o repetidas.',
  H373: 'Puede provocar daños en los órganos tras exposiciones prolongadas o repetidas.',
  H400: 'Muy tóxico para los organismos acuáticos.',
  H401: 'Tóxico para los organismos acuáticos.',
  H402: 'Nocivo para los organismos acuáticos.',
  H410: 'Muy tóxico para los organismos acuáticos, con efectos nocivos duraderos.',
  H411: 'Tóxico para los organismos acuáticos, con efectos nocivos duraderos.',
  H412: 'Nocivo para los organismos acuáticos, con efectos nocivos duraderos.',
  H413: 'Puede ser nocivo para los organismos acuáticos, con efectos nocivos duraderos.',
  H420: 'Causa daños a la salud pública y el medio ambiente al destruir el ozono en la atmósfera superior.',
  // Combined statements (CLP Annex III, 1.1.2).
  'H300+H310': 'Mortal en caso de ingestión o en contacto con la piel.',
  'H300+H330': 'Mortal en caso de ingestión o inhalación.',
  'H310+H330': 'Mortal en contacto con la piel o si se inhala.',
  'H300+H310+H330': 'Mortal en caso de ingestión, en contacto con la piel o si se inhala.',
  'H301+H311': 'Tóxico en caso de ingestión o en contacto con la piel.',
  'H301+H331': 'Tóxico en caso de ingestión o si se inhala.',
  'H311+H331': 'Tóxico en contacto con la piel o si se inhala.',
  'H301+H311+H331': 'Tóxico en caso de ingestión, en contacto con la piel o si se inhala.',
  'H302+H312': 'Nocivo en caso de ingestión o en contacto con la piel.',
  'H302+H332': 'Nocivo en caso de ingestión o inhalación.',
  'H312+H332': 'Nocivo en contacto con la piel o si se inhala.',
  'H302+H312+H332': 'Nocivo en caso de ingestión, en contacto con la piel o si se inhala.',
};

/** Precautionary statements (consejos de prudencia). */
export const PRECAUTIONARY_STATEMENTS: Readonly<Record<string, string>> = {
  // General
  P101: 'Si se necesita consejo médico, tener a mano el envase o la etiqueta.',
  P102: 'Mantener fuera del alcance de los niños.',
  P103: 'Leer la etiqueta antes del uso.',
  // Prevention
  P201: 'Solicitar instrucciones especiales antes del uso.',
  P202: 'No manipular la sustancia antes de haber leído y comprendido todas las instrucciones de seguridad.',
  P210: 'Mantener alejado del calor, de superficies calientes, de chispas, de llamas abiertas y de cualquier otra fuente de ignición. No fumar.',
  P211: 'No pulverizar sobre una llama abierta u otra fuente de ignición.',
  P212: 'Evitar el calentamiento en confinamiento o la reducción del agente insensibilizante.',
  P220: 'Mantener alejado de la ropa y otros materiales combustibles.',
  P222: 'No dejar que entre en contacto con el aire.',
  P223: 'Evitar cualquier posible contacto con el agua.',
  P230: 'Mantener humedecido con …',
  P231: 'Manipular y almacenar el contenido en gas inerte/…',
  P232: 'Proteger de la humedad.',
  P233: 'Mantener el recipiente herméticamente cerrado.',
  P234: 'Conservar únicamente en el embalaje original.',
  P235: 'Mantener en lugar fresco.',
  P240: 'Toma de tierra y enlace equipotencial del recipiente y del equipo receptor.',
  P241: 'Utilizar material eléctrico/de ventilación/de iluminación/… antideflagrante.',
  P242: 'Utilizar herramientas que no produzcan chispas.',
  P243: 'Tomar medidas para evitar descargas electrostáticas.',
  P244: 'Mantener las válvulas de reducción limpias de grasa y aceite.',
  P250: 'Evitar la abrasión/el choque/la fricción/…',
  P251: 'No perforar ni quemar, incluso después de su uso.',
  P260: 'No respirar el polvo/el humo/el gas/la niebla/los vapores/el aerosol.',
  P261: 'Evitar respirar el polvo/el humo/el gas/la niebla/los vapores/el aerosol.',
  P262: 'Evitar el contacto con los ojos, la piel o la ropa.',
  P263: 'Evitar el contacto durante el embarazo y la lactancia.',
  P264: 'Lavarse concienzudamente tras la manipulación.',
  P270: 'No comer, beber ni fumar durante su utilización.',
  P271: 'Utilizar únicamente en exteriores o en un lugar bien ventilado.',
  P272: 'Las prendas de trabajo contaminadas no podrán sacarse del lugar de trabajo.',
  P273: 'Evitar su liberación al medio ambiente.',
  P280: 'Llevar guantes/prendas/gafas/máscara de protección.',
  P282: 'Llevar guantes que aíslen del frío y equipo de protección para la cara o los ojos.',
  P283: 'Llevar prendas resistentes al fuego o ignífugas.',
  P284: 'En caso de ventilación insuficiente, llevar equipo de protección respiratoria.',
  'P231+P232': 'Manipular y almacenar el contenido en gas inerte/… Proteger de la humedad.',
  // Response
  P301: 'EN CASO DE INGESTIÓN:',
  P302: 'EN CASO DE CONTACTO CON LA PIEL:',
  P303: 'EN CASO DE CONTACTO CON LA PIEL (o el pelo):',
  P304: 'EN CASO DE INHALACIÓN:',
  P305: 'EN CASO DE CONTACTO CON LOS OJOS:',
  P306: 'EN CASO DE CONTACTO CON LA ROPA:',
  P308: 'EN CASO DE exposición manifiesta o presunta:',
  P310: 'Llamar inmediatamente a un CENTRO DE TOXICOLOGÍA o a un médico.',
  P311: 'Llamar a un CENTRO DE TOXICOLOGÍA o a un médico.',
  P312: 'Llamar a un CENTRO DE TOXICOLOGÍA o a un médico si la persona se encuentra mal.',
  P313: 'Consultar a un médico.',
  P314: 'Consultar a un médico en caso de malestar.',
  P315: 'Consultar a un médico inmediatamente.',
  P320: 'Se necesita urgentemente un tratamiento específico (ver … en esta etiqueta).',
  P321: 'Se necesita un tratamiento específico (ver … en esta etiqueta).',
  P330: 'Enjuagarse la boca.',
  P331: 'NO provocar el vómito.',
  P332: 'En caso de irritación cutánea:',
  P333: 'En caso de irritación o erupción cutánea:',
  P334: 'Sumergir en agua fría o envolver en vendas húmedas.',
  P335: 'Sacudir las partículas depositadas en la piel.',
  P336: 'Descongelar las partes heladas con agua tibia. No frotar la zona afectada.',
  P337: 'Si persiste la irritación ocular:',
  P338: 'Quitar las lentes de contacto, si lleva y resulta fácil. Seguir aclarando.',
  P340: 'Transportar a la persona al aire libre y mantenerla en una posición que le facilite la respiración.',
  P342: 'En caso de síntomas respiratorios:',
  P351: 'Aclarar cuidadosamente con agua durante varios minutos.',
  P352: 'Lavar con abundante agua.',
  P353: 'Aclararse la piel con agua o ducharse.',
  P360: 'Aclarar inmediatamente con agua abundante las prendas y la piel contaminadas antes de quitarse la ropa.',
  P361: 'Quitarse inmediatamente las prendas contaminadas.',
  P362: 'Quitarse las prendas contaminadas.',
  P363: 'Lavar las prendas contaminadas antes de volver a usarlas.',
  P364: 'Y lavarlas antes de volver a usarlas.',
  P370: 'En caso de incendio:',
  P371: 'En caso de incendio importante y en grandes cantidades:',
  P372: 'Riesgo de explosión.',
  P373: 'NO luchar contra el incendio cuando el fuego llega a los explosivos.',
  P375: 'Luchar contra el incendio a distancia, dado el riesgo de explosión.',
  P376: 'Detener la fuga, si no hay peligro en hacerlo.',
  P377: 'Fuga de gas en llamas: No apagar, salvo si la fuga puede detenerse sin peligro.',
  P378: 'Utilizar … para la extinción.',
  P380: 'Evacuar la zona.',
  P381: 'En caso de fuga, eliminar todas las fuentes de ignición.',
  P390: 'Absorber el vertido para que no dañe otros materiales.',
  P391: 'Recoger el vertido.',
  'P301+P310': 'EN CASO DE INGESTIÓN: Llamar inmediatamente a un CENTRO DE TOXICOLOGÍA o a un médico.',
  'P301+P312':
    'EN CASO DE INGESTIÓN: Llamar a un CENTRO DE TOXICOLOGÍA o a un médico si la persona se encuentra mal.',
  'P301+P330+P331': 'EN CASO DE INGESTIÓN: Enjuagarse la boca. NO provocar el vómito.',
  'P302+P334': 'EN CASO DE CONTACTO CON LA PIEL: Sumergir en agua fría o envolver en vendas húmedas.',
  'P302+P352': 'EN CASO DE CONTACTO CON LA PIEL: Lavar con abundante agua.',
  'P303+P361+P353':
    'EN CASO DE CONTACTO CON LA PIEL (o el pelo): Quitarse inmediatamente las prendas contaminadas. Aclararse la piel con agua o ducharse.',
  'P304+P340':
    'EN CASO DE INHALACIÓN: Transportar a la persona al aire libre y mantenerla en una posición que le facilite la respiración.',
  'P305+P351+P338':
    'EN CASO DE CONTACTO CON LOS OJOS: Aclarar cuidadosamente con agua durante varios minutos. Quitar las lentes de contacto, si lleva y resulta fácil. Seguir aclarando.',
  'P306+P360':
    'EN CASO DE CONTACTO CON LA ROPA: Aclarar inmediatamente con agua abundante las prendas y la piel contaminadas antes de quitarse la ropa.',
  'P308+P311':
    'EN CASO DE exposición manifiesta o presunta: Llamar a un CENTRO DE TOXICOLOGÍA o a un médico.',
  'P308+P313': 'EN CASO DE exposición manifiesta o presunta: Consultar a un médico.',
  'P332+P313': 'En caso de irritación cutánea: Consultar a un médico.',
  'P333+P313': 'En caso de irritación o erupción cutánea: Consultar a un médico.',
  'P336+P315':
    'Descongelar las partes heladas con agua tibia. No frotar la zona afectada. Consultar a un médico inmediatamente.',
  'P337+P313': 'Si persiste la irritación ocular: Consultar a un médico.',
  'P342+P311': 'En caso de síntomas respiratorios: Llamar a un CENTRO DE TOXICOLOGÍA o a un médico.',
  'P361+P364': 'Quitarse inmediatamente las prendas contaminadas y lavarlas antes de volver a usarlas.',
  'P362+P364': 'Quitarse las prendas contaminadas y lavarlas antes de volver a usarlas.',
  'P370+P376': 'En caso de incendio: Detener la fuga, si no hay peligro en hacerlo.',
  'P370+P378': 'En caso de incendio: Utilizar … para la extinción.',
  'P370+P380+P375':
    'En caso de incendio: Evacuar la zona. Luchar contra el incendio a distancia, dado el riesgo de explosión.',
  'P371+P380+P375':
    'En caso de incendio importante y en grandes cantidades: Evacuar la zona. Luchar contra el incendio a distancia, dado el riesgo de explosión.',
  // Storage
  P401: 'Almacenar conforme a …',
  P402: 'Almacenar en un lugar seco.',
  P403: 'Almacenar en un lugar bien ventilado.',
  P404: 'Almacenar en un recipiente cerrado.',
  P405: 'Guardar bajo llave.',
  P406: 'Almacenar en un recipiente resistente a la corrosión/… con revestimiento interior resistente.',
  P407: 'Dejar una separación entre los bloques o los palés.',
  P410: 'Proteger de la luz del sol.',
  P411: 'Almacenar a temperaturas no superiores a … °C.',
  P412: 'No exponer a temperaturas superiores a 50 °C.',
  P413: 'Almacenar las cantidades a granel superiores a … kg a temperaturas no superiores a … °C.',
  P420: 'Almacenar separadamente.',
  'P402+P404': 'Almacenar en un lugar seco. Almacenar en un recipiente cerrado.',
  'P403+P233': 'Almacenar en un lugar bien ventilado. Mantener el recipiente cerrado herméticamente.',
  'P403+P235': 'Almacenar en un lugar bien ventilado. Mantener en lugar fresco.',
  'P410+P403': 'Proteger de la luz del sol. Almacenar en un lugar bien ventilado.',
  'P410+P412': 'Proteger de la luz del sol. No exponer a temperaturas superiores a 50 °C.',
  // Disposal
  P501: 'Eliminar el contenido/el recipiente en …',
  P502: 'Pedir información al fabricante o proveedor sobre su recuperación o reciclado.',
  P503: 'Pedir información al fabricante/proveedor/… sobre la eliminación/recuperación/reciclado.',
};

/** At most this many statements of each kind on one product (a real label has fewer than 20). */
export const MAX_STATEMENTS = 40;

/**
 * One code as people write it → the list's spelling: 'p305 + p351 + p338', 'P305+351+338' → 'P305+P351+P338';
 * 'h350I' → 'H350i' (CLP's lower-case suffixes). Null when the text has no code's shape.
 */
function canonicalCode(text: string, kind: 'H' | 'P'): string | null {
  const parts = text.replace(/\s+/g, '').split('+');
  const out: string[] = [];
  for (const part of parts) {
    const m = new RegExp(`^${kind}?(\\d{3})([a-z]{0,2})$`, 'i').exec(part);
    if (!m) return null;
    out.push(`${kind}${m[1]}${m[2] ?? ''}`);
  }
  const joined = out.join('+');
  // The suffixes' case means something (H360Fd: 'may' harm fertility, 'suspected' to harm the foetus); a code
  // typed in another case is taken only when it names one listed code.
  const list = kind === 'H' ? HAZARD_STATEMENTS : PRECAUTIONARY_STATEMENTS;
  if (joined in list) return joined;
  const lower = joined.toLowerCase();
  const matches = Object.keys(list).filter((k) => k.toLowerCase() === lower);
  return matches.length === 1 ? matches[0]! : joined;
}

/**
 * A list of H or P codes typed by staff or read from a CSV cell ('H290 H314 H335', 'P280; P305+P351+P338'):
 * separated by spaces, commas or semicolons; '+' joins a combined code. Returns the codes in the list's
 * spelling, without repeats, in the order given — or the first code that is not on the official list.
 */
export function parseStatementCodes(
  text: string,
  kind: 'H' | 'P',
): { codes: string[] } | { unknown: string } | { tooMany: number } {
  const list = kind === 'H' ? HAZARD_STATEMENTS : PRECAUTIONARY_STATEMENTS;
  const tokens = text
    .replace(/\s*\+\s*/g, '+')
    .split(/[\s,;]+/)
    .filter(Boolean);
  const codes: string[] = [];
  for (const token of tokens) {
    const code = canonicalCode(token, kind);
    if (code === null || !(code in list)) return { unknown: token };
    if (!codes.includes(code)) codes.push(code);
  }
  if (codes.length > MAX_STATEMENTS) return { tooMany: codes.length };
  return { codes };
}

/** A list of pictogram codes ('GHS05 GHS07', 'ghs5, 7'), or the first that is not one of the nine. */
export function parsePictograms(text: string): { codes: PictogramCode[] } | { unknown: string } {
  const codes: PictogramCode[] = [];
  for (const token of text.split(/[\s,;]+/).filter(Boolean)) {
    const m = /^(?:GHS|SGA)?0?([1-9])$/i.exec(token);
    if (!m) return { unknown: token };
    const code = `GHS0${m[1]}` as PictogramCode;
    if (!codes.includes(code)) codes.push(code);
  }
  return { codes: PICTOGRAM_CODES.filter((c) => codes.includes(c)) };
}

const fold = (s: string) => s.trim().toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');

/** 'Peligro', 'ATENCION', 'danger' → the stored key; null when it is neither word. */
export function parseSignalWord(text: string): SignalWord | null {
  const t = fold(text);
  if (t === 'peligro' || t === 'danger') return 'danger';
  if (t === 'atencion' || t === 'warning') return 'warning';
  return null;
}

/** A grade's code or its name as the shopper reads it ('acs', 'Grado HPLC') → the code; null when unknown. */
export function parseGrade(text: string): GradeCode | null {
  const t = fold(text);
  const found = GRADES.find((g) => fold(g.code) === t || fold(g.name) === t);
  return found ? found.code : null;
}

/** Molar mass in g/mol as typed ('36.46', '36,46'): positive, up to 4 decimals, below one million. */
export function parseMolarMass(text: string): number | null {
  const s = text.trim().replace(',', '.');
  if (!/^\d{1,6}(\.\d{1,4})?$/.test(s)) return null;
  const n = Number(s);
  return n > 0 ? n : null;
}

/** The text of a statement code of the list (the caller only holds listed codes). */
export const statementText = (code: string) =>
  HAZARD_STATEMENTS[code] ?? PRECAUTIONARY_STATEMENTS[code] ?? '';
