import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { ProductDetail } from '../../shared/schemas/catalog.ts';
import { shop } from '../../shared/shop.ts';
import { BRAND, BRAND_LIGHT, INK, LINE, MUTED, PAGE, RED, Writer } from './writer.ts';

/**
 * The shop's own safety and quality papers for its demo catalogue (decision 028): an HDS laid out in the 16
 * sections of NOM-018-STPS-2015 with what the catalogue knows of the product (name, code, CAS, formula, the
 * shop as supplier) and an honest 'Consulte la HDS del fabricante' where only the manufacturer can answer, and
 * a certificate of analysis per lot. Letter size, the shop's identity, drawn with the same writer as the
 * quotation and the CFDI's PDF. Staff upload the manufacturer's documents over these.
 */

export type SafetySheetInput = {
  code: string;
  name: string;
  brand: string | null;
  casNumber: string | null;
  formula: string | null;
  /** The sheet's date (fixed for the demo, so its bytes and hash are stable). */
  date: Date;
  /**
   * The catalogue's SGA data of the family (decision 027), with the official Spanish texts: printed in sections 2,
   * 7 and 9 when there is some; otherwise those sections refer to the manufacturer's HDS.
   */
  safety?: ProductDetail['safety'];
};

export type CertificateInput = SafetySheetInput & {
  lot: string;
  analysisDate: string;
  expiryDate: string | null;
  /** The lot's measured purity, e.g. 99.7 (the demo's fabricated result). */
  assay: number;
};

const MANUFACTURER = 'Consulte la HDS del fabricante.';
const longDate = (d: Date) =>
  new Intl.DateTimeFormat('es-MX', { dateStyle: 'long', timeZone: 'America/Mexico_City' }).format(d);
const isoDate = (iso: string) => longDate(new Date(`${iso}T12:00:00Z`));

/** The 16 sections of an HDS in the order and words of NOM-018-STPS-2015 (Apéndice A). */
export const HDS_SECTIONS = [
  'Identificación de la sustancia química peligrosa o mezcla y del proveedor o fabricante',
  'Identificación de los peligros',
  'Composición/información sobre los componentes',
  'Primeros auxilios',
  'Medidas contra incendios',
  'Medidas que deben tomarse en caso de derrame o fuga accidental',
  'Manejo y almacenamiento',
  'Controles de exposición/protección personal',
  'Propiedades físicas y químicas',
  'Estabilidad y reactividad',
  'Información toxicológica',
  'Información ecotoxicológica',
  'Información relativa a la eliminación de los productos',
  'Información relativa al transporte',
  'Información reglamentaria',
  'Otra información incluida la relativa a la preparación y actualización de la hoja de datos de seguridad',
] as const;

async function open(title: string, subject: string, date: Date) {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setAuthor(shop.legalName);
  doc.setSubject(subject);
  doc.setCreator(shop.tradeName);
  doc.setProducer(shop.tradeName);
  doc.setLanguage('es-MX');
  doc.setCreationDate(date);
  doc.setModificationDate(date);
  const w = new Writer(
    doc,
    await doc.embedFont(StandardFonts.Helvetica),
    await doc.embedFont(StandardFonts.HelveticaBold),
    await doc.embedFont(StandardFonts.Courier),
  );
  return { doc, w };
}

/** The shop's identity on the left, the document's title and key facts in a box on the right. */
function header(w: Writer, title: string, facts: [string, string][]) {
  const { margin, width } = PAGE;
  w.page.drawRectangle({ x: 0, y: PAGE.height - 6, width, height: 6, color: BRAND });
  const top = w.y;
  w.text(shop.tradeName, margin, top - 14, 18, w.bold, BRAND);
  w.text(shop.legalName, margin, top - 28, 8.5, w.bold);
  w.text(`RFC ${shop.invoicing.issuer.rfc}`, margin, top - 39, 8);
  const a = shop.address;
  w.text(`${a.street}, ${a.neighbourhood}`, margin, top - 50, 8);
  w.text(`${a.postalCode} ${a.city}, ${a.state}, ${a.country}`, margin, top - 60, 8);
  w.text(`Tel. ${shop.phones.join(' · ')} · ${shop.email}`, margin, top - 70, 8);
  const boxW = 220;
  const boxX = width - margin - boxW;
  const boxH = 30 + facts.length * 11;
  w.page.drawRectangle({ x: boxX, y: top - boxH, width: boxW, height: boxH, color: BRAND_LIGHT });
  w.text(title, boxX + 10, top - 18, 12, w.bold, BRAND);
  facts.forEach(([label, value], i) => {
    const yy = top - 34 - i * 11;
    w.text(label, boxX + 10, yy, 7.5, w.bold, MUTED);
    w.text(value, boxX + 82, yy, 8.5, w.font);
  });
  w.y = top - Math.max(boxH, 80) - 14;
}

function banner(w: Writer, text: string) {
  const { margin, width } = PAGE;
  // Measured in bold, the wider face, so the bold first line fits too.
  const lines = w.wrap(text, width - 2 * margin - 20, 8.5, w.bold);
  const h = 10 + lines.length * 11;
  w.page.drawRectangle({
    x: margin,
    y: w.y - h,
    width: width - 2 * margin,
    height: h,
    color: BRAND_LIGHT,
    borderColor: RED,
    borderWidth: 0.8,
  });
  lines.forEach((line, i) => {
    w.text(line, margin + 10, w.y - 13 - i * 11, 8.5, i === 0 ? w.bold : w.font, i === 0 ? RED : INK);
  });
  w.y -= h + 12;
}

/** A labelled row of a section: the label in bold, the value wrapped beside it. */
function row(w: Writer, label: string, value: string) {
  const { margin, width } = PAGE;
  const labelW = 170;
  const lines = w.wrap(value, width - 2 * margin - labelW - 12, 9);
  const labels = w.wrap(label, labelW - 10, 8.5, w.bold);
  const count = Math.max(lines.length, labels.length);
  w.ensure(count * 12 + 4);
  labels.forEach((line, i) => {
    w.text(line, margin + 12, w.y - 10 - i * 12, 8.5, w.bold, MUTED);
  });
  lines.forEach((line, i) => {
    w.text(line, margin + 12 + labelW, w.y - 10 - i * 12, 9);
  });
  w.y -= count * 12 + 4;
}

function sectionTitle(w: Writer, n: number, title: string) {
  const { margin, width } = PAGE;
  const lines = w.wrap(`Sección ${n}. ${title}`, width - 2 * margin - 16, 9.5, w.bold);
  w.ensure(lines.length * 12 + 30);
  const h = 6 + lines.length * 12;
  w.page.drawRectangle({ x: margin, y: w.y - h, width: width - 2 * margin, height: h, color: BRAND_LIGHT });
  lines.forEach((line, i) => {
    w.text(line, margin + 8, w.y - 11 - i * 12, 9.5, w.bold, BRAND);
  });
  w.y -= h + 6;
}

function footers(w: Writer, left: string) {
  const { margin, width } = PAGE;
  w.pages.forEach((page, i) => {
    page.drawLine({
      start: { x: margin, y: 34 },
      end: { x: width - margin, y: 34 },
      thickness: 0.5,
      color: LINE,
    });
    const right = `Página ${i + 1} de ${w.pages.length}`;
    page.drawText(w.safe(left), { x: margin, y: 22, size: 7.5, font: w.font, color: MUTED });
    page.drawText(right, {
      x: width - margin - w.width(right, 7.5),
      y: 22,
      size: 7.5,
      font: w.font,
      color: MUTED,
    });
  });
}

const supplier = () => {
  const a = shop.address;
  return `${shop.legalName} (${shop.tradeName}), ${a.street}, ${a.neighbourhood}, ${a.postalCode} ${a.city}, ${a.state}. Tel. ${shop.phones[0]}; ${shop.email}`;
};

/** The HDS of a product in the 16 sections of NOM-018-STPS-2015, with what the shop knows. */
/**
 * Section 2 from the catalogue's SGA data: pictograms, signal word, and each H and P code with its official
 * Spanish text (src/shared/ghs.ts). The hazard classes and categories are the manufacturer's to state.
 */
function hazards(safety: SafetySheetInput['safety']): [string, string][] {
  const some =
    safety &&
    (safety.pictograms.length > 0 ||
      safety.signalWord !== null ||
      safety.hazardStatements.length > 0 ||
      safety.precautionaryStatements.length > 0);
  if (!safety || !some) {
    return [
      ['Clasificación (SGA)', MANUFACTURER],
      ['Pictogramas y palabra de advertencia', MANUFACTURER],
      ['Indicaciones de peligro y consejos de prudencia', MANUFACTURER],
    ];
  }
  const listed = (items: { code: string; text: string }[]) =>
    items.length > 0 ? items.map((s) => `${s.code} ${s.text}`).join(' ') : 'Ninguno en la etiqueta.';
  return [
    ['Clasificación (SGA)', 'Clases y categorías de peligro: consulte la HDS del fabricante.'],
    [
      'Pictogramas',
      safety.pictograms.length > 0
        ? safety.pictograms.map((g) => `${g.code} (${g.name})`).join(', ')
        : 'Ninguno',
    ],
    ['Palabra de advertencia', safety.signalWord ?? 'Ninguna'],
    ['Indicaciones de peligro', listed(safety.hazardStatements)],
    ['Consejos de prudencia', listed(safety.precautionaryStatements)],
  ];
}

export async function renderSafetySheetPdf(p: SafetySheetInput): Promise<Uint8Array> {
  const { doc, w } = await open(
    `HDS ${p.code} · ${p.name}`,
    `Hoja de datos de seguridad (NOM-018-STPS-2015) de ${p.name}`,
    p.date,
  );
  header(w, 'HOJA DE DATOS DE SEGURIDAD', [
    ['Producto', p.code],
    ['No. CAS', p.casNumber ?? 'No aplica'],
    ['Norma', 'NOM-018-STPS-2015'],
    ['Elaboración', longDate(p.date)],
  ]);
  w.text(p.name, PAGE.margin, w.y - 14, 15, w.bold);
  w.y -= 26;
  banner(
    w,
    `Hoja preparada por ${shop.tradeName} con los datos de su catálogo. Las secciones que solo el fabricante puede llenar remiten a su HDS, que se entrega con el producto y se envía a solicitud: ${shop.email}.`,
  );
  const sections: [string, string][][] = [
    [
      ['Nombre de la sustancia', p.name],
      ['Otros medios de identificación', `Código ${p.code}${p.brand ? `, marca ${p.brand}` : ''}`],
      ['Uso recomendado', 'Reactivo para uso en laboratorio. No destinado a uso doméstico ni alimentario.'],
      ['Proveedor', supplier()],
      ['Fabricante', p.brand ? `${p.brand}. ${MANUFACTURER}` : MANUFACTURER],
      [
        'Teléfono en caso de emergencia',
        `${MANUFACTURER} Atención a clientes de ${shop.tradeName}: ${shop.phones[0]} (${shop.hours}).`,
      ],
    ],
    hazards(p.safety),
    [
      ['Nombre químico', p.name],
      ['Número CAS', p.casNumber ?? 'No aplica'],
      ['Fórmula', p.formula ?? 'No aplica'],
      ['Concentración e impurezas', MANUFACTURER],
    ],
  ];
  HDS_SECTIONS.forEach((title, i) => {
    sectionTitle(w, i + 1, title);
    const rows =
      sections[i] ??
      ((i === 6 && p.safety?.storageConditions
        ? [
            ['Condiciones de almacenamiento', p.safety.storageConditions],
            ['Manejo seguro e incompatibilidades', MANUFACTURER],
          ]
        : i === 8
          ? [
              ['Fórmula molecular', p.formula ?? 'No aplica'],
              ...(p.safety?.molarMass ? [['Masa molar', `${p.safety.molarMass} g/mol`]] : []),
              ['Estado, olor, pH, puntos de fusión y ebullición', MANUFACTURER],
            ]
          : i === 15
            ? [
                ['Fecha de elaboración', longDate(p.date)],
                ['Elaboró', `${shop.legalName}, con los datos de su catálogo`],
                [
                  'Nota',
                  'Esta hoja no sustituye la HDS del fabricante; consúltela antes de manejar el producto.',
                ],
              ]
            : [['Información', MANUFACTURER]]) as [string, string][]);
    for (const [label, value] of rows) row(w, label, value);
    w.y -= 6;
  });
  footers(w, `HDS ${p.code} · ${shop.tradeName} · NOM-018-STPS-2015`);
  return doc.save();
}

/** A certificate of analysis of one lot (the demo's: its results are examples, and it says so). */
export async function renderCertificatePdf(p: CertificateInput): Promise<Uint8Array> {
  const { doc, w } = await open(
    `Certificado de análisis ${p.code} lote ${p.lot}`,
    `Certificado de análisis del lote ${p.lot} de ${p.name}`,
    p.date,
  );
  header(w, 'CERTIFICADO DE ANÁLISIS', [
    ['Producto', p.code],
    ['Lote', p.lot],
    ['Fecha de análisis', isoDate(p.analysisDate)],
    ['Caducidad', p.expiryDate ? isoDate(p.expiryDate) : 'No aplica'],
  ]);
  w.text(p.name, PAGE.margin, w.y - 14, 15, w.bold);
  w.y -= 26;
  banner(
    w,
    `Documento de demostración generado por ${shop.tradeName}: los resultados son ejemplos. En la tienda real este lugar lo ocupa el certificado del fabricante para el lote ${p.lot}.`,
  );
  row(w, 'Marca', p.brand ?? '—');
  row(w, 'Número CAS', p.casNumber ?? 'No aplica');
  row(w, 'Fórmula', p.formula ?? 'No aplica');
  w.y -= 10;
  const { margin, width } = PAGE;
  const cols = [margin, margin + 190, margin + 360];
  w.page.drawRectangle({ x: margin, y: w.y - 18, width: width - 2 * margin, height: 18, color: BRAND });
  ['Prueba', 'Especificación', 'Resultado'].forEach((h, i) => {
    w.page.drawText(h, { x: cols[i]! + 8, y: w.y - 13, size: 9, font: w.bold, color: BRAND_LIGHT });
  });
  w.y -= 18;
  const tests: [string, string, string][] = [
    ['Apariencia', 'Conforme a la descripción', 'Conforme'],
    ['Identidad (IR)', 'Conforme al estándar', 'Conforme'],
    ['Valoración (pureza)', '≥ 99.0 %', `${p.assay.toFixed(1)} %`],
    ['Residuo de evaporación', '≤ 0.005 %', '0.001 %'],
    ['Metales pesados (como Pb)', '≤ 5 ppm', '< 1 ppm'],
  ];
  for (const [test, spec, result] of tests) {
    w.text(test, cols[0]! + 8, w.y - 13, 9);
    w.text(spec.replace('≥', '>=').replace('≤', '<='), cols[1]! + 8, w.y - 13, 9);
    w.text(result, cols[2]! + 8, w.y - 13, 9, w.bold);
    w.page.drawLine({
      start: { x: margin, y: w.y - 18 },
      end: { x: width - margin, y: w.y - 18 },
      thickness: 0.5,
      color: LINE,
    });
    w.y -= 18;
  }
  w.y -= 16;
  w.text('Dictamen: el lote cumple con las especificaciones.', margin, w.y - 10, 10, w.bold, BRAND);
  w.y -= 40;
  w.text('Control de calidad', margin, w.y - 10, 9, w.bold);
  w.text(shop.legalName, margin, w.y - 22, 8.5, w.font, MUTED);
  footers(w, `Certificado de análisis ${p.code} · lote ${p.lot} · ${shop.tradeName}`);
  return doc.save();
}
