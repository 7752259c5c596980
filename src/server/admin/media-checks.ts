import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFInvalidObject,
  PDFName,
  type PDFObject,
  PDFStream,
} from 'pdf-lib';
import sharp from 'sharp';
import { DATASHEET_MAX_BYTES, IMAGE_MAX_BYTES } from '../../shared/schemas/admin.ts';
import { SAFETY_DOC_MAX_BYTES } from '../../shared/schemas/documents.ts';
import { hasPdfHeader, sniffImageType } from '../catalog/media.ts';

/** '6.00 MB' for a file's size; the limits are whole megabytes ('5 MB'). */
export const sizeText = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
export const limitText = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** Why these bytes cannot be a product picture (JPEG, PNG or WebP up to 5 MB, judged by content), or null. */
export async function imageProblem(data: Buffer): Promise<string | null> {
  if (data.length === 0) return 'La imagen está vacía';
  if (data.length > IMAGE_MAX_BYTES)
    return `La imagen pesa ${sizeText(data.length)}; el límite es ${limitText(IMAGE_MAX_BYTES)}`;
  const type = sniffImageType(data);
  if (type !== 'image/jpeg' && type !== 'image/png' && type !== 'image/webp')
    return 'La imagen debe ser JPEG, PNG o WebP';
  try {
    const meta = await sharp(data).metadata();
    if (!meta.width || !meta.height) return 'La imagen está dañada o incompleta';
    if (meta.width * meta.height > 40_000_000) return 'La imagen es demasiado grande (más de 40 megapíxeles)';
  } catch {
    return 'La imagen está dañada o incompleta';
  }
  return null;
}

/** What a PDF may not carry: script, programs to launch, files inside it, actions that run by themselves. */
const ACTIVE_KEYS: Record<string, string> = {
  JS: 'JavaScript',
  JavaScript: 'JavaScript',
  AA: 'acciones automáticas (/AA)',
  Launch: 'acciones que abren programas (/Launch)',
  EmbeddedFile: 'archivos incrustados',
  EmbeddedFiles: 'archivos incrustados',
  EF: 'archivos incrustados',
  XFA: 'formularios XFA',
};
/** Action types (/S) refused wherever they appear — in /OpenAction, a link, a form field. */
const ACTIVE_ACTIONS: Record<string, string> = {
  JavaScript: 'JavaScript',
  Launch: 'acciones que abren programas (/Launch)',
  GoToE: 'archivos incrustados',
  ImportData: 'acciones que importan datos (/ImportData)',
};

/** The active content found in a parsed PDF's objects (object streams included, names decoded: /J#53 is /JS). */
function activeContent(doc: PDFDocument): Set<string> {
  const found = new Set<string>();
  const seen = new Set<PDFObject>();
  const visit = (obj: PDFObject): void => {
    if (seen.has(obj)) return;
    seen.add(obj);
    if (obj instanceof PDFStream) {
      visit(obj.dict);
      return;
    }
    if (obj instanceof PDFArray) {
      for (const item of obj.asArray()) visit(item);
      return;
    }
    if (obj instanceof PDFInvalidObject) {
      // An object pdf-lib could not read: judged by its bytes, which a more lenient reader might still run.
      for (const m of obj
        .toString()
        .matchAll(/\/(JS|JavaScript|AA|Launch|EmbeddedFiles?|EF|XFA)(?![A-Za-z0-9#])/g))
        found.add(ACTIVE_KEYS[m[1] as string] as string);
      return;
    }
    if (!(obj instanceof PDFDict)) return;
    for (const [key, value] of obj.entries()) {
      const name = key.decodeText();
      const keyIs = ACTIVE_KEYS[name];
      if (keyIs) found.add(keyIs);
      if (value instanceof PDFName) {
        const v = value.decodeText();
        if (name === 'S' && ACTIVE_ACTIONS[v]) found.add(ACTIVE_ACTIONS[v] as string);
        if (name === 'Type' && v === 'EmbeddedFile') found.add('archivos incrustados');
      }
      visit(value);
    }
  };
  for (const [, obj] of doc.context.enumerateIndirectObjects()) visit(obj);
  return found;
}

/**
 * The structure every PDF has, read from its bytes before any parser is trusted with them: the header at byte 0
 * (not merely somewhere in the first KB: an HTML page with '%PDF-' in a comment passed that), the '%%EOF' trailer
 * and 'startxref' pointing at a cross-reference table ('xref') or a cross-reference stream (/Type /XRef).
 */
function structureProblem(data: Buffer): 'header' | 'structure' | null {
  if (!hasPdfHeader(data)) return 'header';
  const tail = data.subarray(Math.max(0, data.length - 1024)).toString('latin1');
  if (!tail.includes('%%EOF')) return 'structure';
  const pointers = [...tail.matchAll(/startxref\s+(\d+)/g)];
  const offset = Number(pointers.at(-1)?.[1] ?? Number.NaN);
  if (!Number.isSafeInteger(offset) || offset < 8 || offset >= data.length) return 'structure';
  const at = data.subarray(offset, offset + 2048).toString('latin1');
  if (/^\s*xref\b/.test(at))
    return /trailer\s*<</.test(data.subarray(offset).toString('latin1')) ? null : 'structure';
  if (/^\s*\d+\s+\d+\s+obj\b[\s\S]*?\/Type\s*\/XRef\b/.test(at)) return null;
  return 'structure';
}

/**
 * Why these bytes cannot be the PDF named `what` ('La ficha técnica'), or null: judged by content, never by the
 * name or the browser's type (decision 053). The structure must be a PDF's (structureProblem); pdf-lib must read
 * it and find at least one page; it may not be encrypted (its objects could not be inspected) nor carry active
 * content (ACTIVE_KEYS, ACTIVE_ACTIONS): a renamed HTML or Word file, a PDF cut off in transit or one that runs
 * script in the buyer's viewer is refused at upload, with a 400 that says why.
 */
export async function pdfProblem(data: Buffer, what: string, max: number): Promise<string | null> {
  if (data.length === 0) return `${what} está ${what.startsWith('El ') ? 'vacío' : 'vacía'}`;
  if (data.length > max) return `${what} pesa ${sizeText(data.length)}; el límite es ${limitText(max)}`;
  const structure = structureProblem(data);
  if (structure === 'header') return `${what} no es un PDF`;
  const damaged = `${what} es un PDF dañado o incompleto`;
  if (structure) return damaged;
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(data, {
      ignoreEncryption: true,
      updateMetadata: false,
      throwOnInvalidObject: false,
    });
    if (doc.isEncrypted)
      return `${what} está cifrado o protegido con contraseña; guárdelo sin protección y súbalo de nuevo`;
    if (doc.getPageCount() < 1) return `${what} es un PDF sin páginas`;
  } catch {
    return damaged;
  }
  const active = activeContent(doc);
  if (active.size > 0)
    return `${what} contiene ${[...active].join(', ')}, que no aceptamos por seguridad; guárdelo de nuevo como PDF sin ese contenido (por ejemplo, con «Imprimir como PDF») y súbalo otra vez`;
  return null;
}

/** Why these bytes cannot be a datasheet (a PDF up to 10 MB, judged as every uploaded PDF is), or null. */
export const datasheetProblem = (data: Buffer) => pdfProblem(data, 'La ficha técnica', DATASHEET_MAX_BYTES);

/** Why these bytes cannot be a safety data sheet (HDS) or a certificate of analysis (a PDF that opens). */
export const safetyDocProblem = (data: Buffer, what: string) => pdfProblem(data, what, SAFETY_DOC_MAX_BYTES);
