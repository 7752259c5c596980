import { inArray } from 'drizzle-orm';
import { leadTimeOf, splitQuantity, splitText } from '../../shared/backorder.ts';
import { MAX_LINE_QUANTITY } from '../../shared/limits.ts';
import { presentationName } from '../../shared/presentation-name.ts';
import {
  QUICK_ORDER_MAX_FILE_BYTES,
  QUICK_ORDER_MAX_LINES,
  type QuickOrderLine,
  type QuickOrderRequest,
  type QuickOrderResponse,
} from '../../shared/schemas/quick-order.ts';
import { type PriceBreak, unitPriceFor } from '../../shared/volume-prices.ts';
import { listProducts } from '../catalog/listing.ts';
import type { Db } from '../db/client.ts';
import { priceBreaks, products } from '../db/schema.ts';
import { badRequest } from '../http/errors.ts';
import { productImageUrl } from './quote.ts';
import { xlsxToText } from './xlsx.ts';

/**
 * Quick order (issue 18, decision 020): lines 'CÓDIGO CANTIDAD' pasted or read from a CSV export, resolved
 * against the catalogue with a verdict per line. The server reads; the browser adds the `ok` lines to its cart
 * under the cart's rules (cart-rules.ts), and the quote and checkout check stock again as for any cart.
 */

/** A line as read: a code and a quantity, or why it cannot be read. */
export type ParsedLine =
  | {
      line: number;
      source: string;
      code: string;
      quantity: number;
      note?: string;
      /** When `code` is not in the catalogue: the words before the last, and the last word as a mistyped quantity. */
      orCode?: { code: string; quantityText: string } | undefined;
    }
  | { line: number; source: string; error: string };

const SOURCE_MAX = 80;
const show = (s: string) => (s.length > SOURCE_MAX ? `${s.slice(0, SOURCE_MAX)}…` : s);

/** A spreadsheet formula or a cell that a spreadsheet would run as one ('=cmd|…', '+…', '@…'). */
const FORMULA = /^[=+@]|^-[^\d]/;
const HEADER = /^(c[oó]digo|clave|code|sku|art[ií]culo|producto|n[uú]mero de parte)$/i;

/** Spaces a spreadsheet or a Mexican document puts between thousands: plain, no-break, narrow no-break. */
const GROUP_SPACE = '[ \u00a0\u202f]';
/** A whole number, bare or grouped by thousands the Mexican way: '2030', '2,030', '2 030', '1,250,000'. */
const QUANTITY = new RegExp(`^(?:\\d+|\\d{1,3}(?:,\\d{3})+|\\d{1,3}(?:${GROUP_SPACE}\\d{3})+)$`);
/** Looks like someone meant a number (digits with separators or a decimal part): read or refused, never a code. */
const NUMBERISH = /^[\d.,]+$/;

/** 'CÓDIGO 1,500' and 'CÓDIGO 2 030': a code and a quantity grouped by thousands, not comma-separated cells. */
const CODE_THEN_GROUPED = new RegExp(
  `^([^\\t,;]*?\\S)\\s+(\\d{1,3}(?:,\\d{3})+)$|^(\\S+)\\s+(\\d{1,3}(?:${GROUP_SPACE}\\d{3})+)$`,
);

/** Splits one cell-separated line, honouring double quotes ('"LBN-1";"2,030"' keeps the comma in its cell). */
function splitCells(line: string, separator: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '"') {
      if (quoted && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else quoted = !quoted;
    } else if (c === separator && !quoted) {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}

/**
 * The cells of a line. One separator per line, the strongest present: a tab (pasted from a spreadsheet) or a
 * semicolon (Excel's CSV in Spanish) leaves commas alone, so a quantity written '2,030' stays 2030; a comma
 * separates cells only when the line is not a code followed by a thousands-grouped quantity.
 */
function cellsOf(source: string): { cells: string[]; separated: boolean } {
  const grouped = CODE_THEN_GROUPED.exec(source);
  if (!/[\t;]/.test(source) && grouped) {
    const code = grouped[1] ?? grouped[3]!;
    return { cells: [...code.split(/\s+/), grouped[2] ?? grouped[4]!], separated: false };
  }
  const separator = ['\t', ';', ','].find((s) => source.includes(s));
  if (separator) return { cells: splitCells(source, separator), separated: true };
  return { cells: source.split(/\s+/), separated: false };
}

/** A quantity cell read as a whole number (thousands separators dropped), or null when it is not one. */
export function readQuantity(text: string): number | null {
  return QUANTITY.test(text) ? Number(text.replace(/[^\d]/g, '')) : null;
}

const badQuantity = (text: string) => `Cantidad no válida: «${show(text)}»`;

/**
 * Splits the text into lines and each line into a code and a quantity. Cells are separated by tabs, semicolons
 * or commas (spreadsheets, CSV); a line without them by spaces, the last word being the quantity. Quotes around
 * cells are dropped. A first line that reads like a header is skipped. A line that is only a code means 1; a
 * quantity that cannot be read is refused with the text as written, never taken as 1. A space-separated line
 * whose last word is not a number may be a code with a space in it ('LBN 10001') or a code and a mistyped
 * quantity ('LBN-10001 x'): the catalogue decides (`orCode`, resolveQuickOrder).
 */
export function parseQuickOrder(text: string): { lines: ParsedLine[]; total: number } {
  const raw = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const lines: ParsedLine[] = [];
  let total = 0;
  raw.forEach((physical, index) => {
    const source = physical.trim();
    if (source === '' || source.startsWith('#')) return;
    total += 1;
    const line = index + 1;
    if (/[\p{Cc}\ufffd]/u.test(source.replace(/\t/g, ' '))) {
      lines.push({
        line,
        source: show(source.replace(/[\p{Cc}\ufffd]/gu, '?')),
        error: 'La línea tiene caracteres que no son texto',
      });
      return;
    }
    const split = cellsOf(source);
    const cells = split.cells.map((c) => c.trim()).filter((c) => c !== '');
    if (cells.length === 0) return;
    const formula = cells.find((c) => FORMULA.test(c));
    if (formula) {
      lines.push({
        line,
        source: show(source),
        error: `La celda «${show(formula)}» es una fórmula de hoja de cálculo: escriba solo el código y la cantidad`,
      });
      return;
    }
    if (lines.length === 0 && total === 1 && HEADER.test(cells[0]!)) {
      total -= 1;
      return;
    }
    let quantityText: string | undefined;
    let codeCells = cells;
    let orCode: { code: string; quantityText: string } | undefined;
    const last = cells[cells.length - 1]!;
    if (cells.length > 1 && (NUMBERISH.test(last) || readQuantity(last) !== null)) {
      quantityText = last;
      codeCells = cells.slice(0, -1);
    } else if (split.separated && cells.length > 2) {
      // 'CÓDIGO;DESCRIPCIÓN;CANTIDAD' from a system export: the first cell is the code, a later numeric one the
      // quantity; without one, the last cell is the quantity as written (refused below, never read as 1).
      const numeric = cells.slice(1).findLast((c) => readQuantity(c) !== null);
      quantityText = numeric ?? last;
      codeCells = [cells[0]!];
    } else if (split.separated && cells.length === 2) {
      quantityText = last;
      codeCells = [cells[0]!];
    } else if (cells.length > 1) {
      orCode = { code: cells.slice(0, -1).join(' '), quantityText: last };
    }
    // Cell-separated: the code is the first cell; space-separated: the words before the quantity.
    const code = (split.separated ? codeCells[0]! : codeCells.join(' ')).trim();
    if (code.length > 64) {
      lines.push({ line, source: show(source), error: 'El código es demasiado largo (hasta 64 caracteres)' });
      return;
    }
    if (quantityText === undefined) {
      lines.push({ line, source: show(source), code, quantity: 1, note: 'Sin cantidad: se toma 1', orCode });
      return;
    }
    const quantity = readQuantity(quantityText);
    if (quantity === null) {
      lines.push({ line, source: show(source), error: badQuantity(quantityText) });
      return;
    }
    if (quantity === 0) {
      lines.push({ line, source: show(source), error: 'La cantidad debe ser mayor que 0' });
      return;
    }
    if (quantity > MAX_LINE_QUANTITY) {
      lines.push({
        line,
        source: show(source),
        error: `La cantidad no puede ser mayor que ${MAX_LINE_QUANTITY}`,
      });
      return;
    }
    lines.push({ line, source: show(source), code, quantity });
  });
  return { lines, total };
}

/**
 * The text of an uploaded file: an Excel workbook's first sheet (.xlsx), or CSV or plain text in UTF-8 or
 * Latin-1/Windows-1252; anything else is refused.
 */
export function decodeQuickOrderFile(name: string, base64: string): { text: string; notes: string[] } {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) throw badRequest('El archivo está vacío');
  if (bytes.length > QUICK_ORDER_MAX_FILE_BYTES) {
    throw badRequest(`El archivo no puede pasar de ${QUICK_ORDER_MAX_FILE_BYTES / 1000} KB`);
  }
  // XLSX (and any ZIP) starts with 'PK\x03\x04': its first sheet is read (xlsx.ts). The old XLS, and any
  // password-protected workbook, is an OLE2 compound file.
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04)
    return xlsxToText(bytes);
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf) {
    throw badRequest(
      'Los libros de Excel 97-2003 (.xls) y los protegidos con contraseña no se leen aquí: en Excel elija «Guardar como» → «Libro de Excel (.xlsx)» o «CSV UTF-8», o copie las celdas y péguelas en el cuadro.',
    );
  }
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw badRequest('El archivo está en UTF-16: guárdelo como «CSV UTF-8 (delimitado por comas)».');
  }
  if (bytes.includes(0)) {
    throw badRequest(
      `«${show(name)}» no es un archivo de texto ni CSV: suba un CSV con el código y la cantidad por línea.`,
    );
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), notes: [] };
  } catch {
    // Excel's 'CSV (delimitado por comas)' in Spanish saves Windows-1252; codes are plain letters and digits.
    return {
      text: new TextDecoder('windows-1252').decode(bytes),
      notes: ['El archivo no estaba en UTF-8; se leyó como Latin-1 (Windows-1252), como lo guarda Excel.'],
    };
  }
}

/** Codes as a shopper may type them: the exact text, upper case, and without inner spaces ('LBN 10001' → 'LBN-10001'). */
function spellings(code: string): string[] {
  const up = code.toUpperCase();
  const words = up.split(/\s+/);
  return [...new Set([code, up, words.join(''), words.join('-')])];
}

async function suggestionsFor(db: Db, code: string): Promise<{ code: string; name: string }[]> {
  if (!/[\p{L}\p{N}]/u.test(code)) return [];
  const found = await listProducts(
    db,
    { q: code, brand: [], group: [], line: [], type: [], sort: 'code', page: 1, pageSize: 3 },
    { explicitSort: false },
  );
  return found.items.map((p) => ({ code: p.code, name: p.name }));
}

export async function resolveQuickOrder(db: Db, request: QuickOrderRequest): Promise<QuickOrderResponse> {
  let text = request.text ?? '';
  const notes: string[] = [];
  if (request.file) {
    const decoded = decodeQuickOrderFile(request.file.name, request.file.base64);
    text = decoded.text;
    notes.push(...decoded.notes);
  }
  const parsed = parseQuickOrder(text);
  if (parsed.total === 0)
    throw badRequest('No hay líneas que leer: escriba un código y una cantidad por línea');
  if (parsed.total > QUICK_ORDER_MAX_LINES) {
    throw badRequest(
      `Su lista tiene ${parsed.total.toLocaleString('en-US')} líneas; el pedido rápido admite hasta ${QUICK_ORDER_MAX_LINES} (los productos distintos que caben en un carrito). Divídala en varias partes.`,
    );
  }
  const candidates = parsed.lines.flatMap((l) =>
    'code' in l ? [...spellings(l.code), ...(l.orCode ? spellings(l.orCode.code) : [])] : [],
  );
  const rows =
    candidates.length === 0
      ? []
      : await db
          .select({
            code: products.code,
            name: products.name,
            presentationLabel: products.presentationLabel,
            priceCents: products.priceCents,
            stock: products.stock,
            active: products.active,
            imageHash: products.imageHash,
            backorderable: products.backorderable,
            leadMinDays: products.leadMinDays,
            leadMaxDays: products.leadMaxDays,
          })
          .from(products)
          .where(inArray(products.code, [...new Set(candidates)]));
  const byCode = new Map(rows.map((r) => [r.code, r]));
  const lookUp = (code: string) =>
    spellings(code)
      .map((c) => byCode.get(c))
      .find((r) => r !== undefined);
  const breakRows =
    rows.length === 0
      ? []
      : await db
          .select({
            code: priceBreaks.productCode,
            minQuantity: priceBreaks.minQuantity,
            priceCents: priceBreaks.priceCents,
          })
          .from(priceBreaks)
          .where(
            inArray(
              priceBreaks.productCode,
              rows.map((r) => r.code),
            ),
          );
  const breaksOf = new Map<string, PriceBreak[]>();
  for (const b of breakRows) breaksOf.set(b.code, [...(breaksOf.get(b.code) ?? []), b]);
  const inCart = new Map(request.cart.map((c) => [c.code, c.quantity]));
  // The cart prices a product by all its units (volume prices): what it will hold once every line is added.
  const willHold = new Map(inCart);
  for (const l of parsed.lines) {
    if (!('code' in l)) continue;
    const found = lookUp(l.code);
    if (found) willHold.set(found.code, (willHold.get(found.code) ?? 0) + l.quantity);
  }
  // The same product on several lines: the quantities add up, as they would in the cart.
  const asked = new Map<string, number>();
  const lines: QuickOrderLine[] = [];
  for (const l of parsed.lines) {
    if ('error' in l) {
      lines.push({
        line: l.line,
        source: l.source,
        status: 'invalid',
        code: null,
        quantity: null,
        message: l.error,
        product: null,
        suggestions: [],
      });
      continue;
    }
    const found = lookUp(l.code);
    const codeBeforeLastWord = !found && l.orCode ? lookUp(l.orCode.code) : undefined;
    if (codeBeforeLastWord && l.orCode) {
      // 'ANX-10015 x': the code is known, so the last word was meant as the quantity.
      lines.push({
        line: l.line,
        source: l.source,
        status: 'invalid',
        code: codeBeforeLastWord.code,
        quantity: null,
        message: badQuantity(l.orCode.quantityText),
        product: null,
        suggestions: [],
      });
      continue;
    }
    if (!found) {
      lines.push({
        line: l.line,
        source: l.source,
        status: 'not_found',
        code: null,
        quantity: l.quantity,
        message: `No encontramos el código «${show(l.code)}»`,
        product: null,
        suggestions: await suggestionsFor(db, l.code),
      });
      continue;
    }
    const cart = inCart.get(found.code) ?? 0;
    const before = asked.get(found.code) ?? 0;
    asked.set(found.code, before + l.quantity);
    const product = {
      name: presentationName(found),
      priceCents: found.priceCents,
      unitPriceCents: unitPriceFor(
        found.priceCents,
        breaksOf.get(found.code) ?? [],
        willHold.get(found.code) ?? l.quantity,
      ),
      stock: found.stock,
      imageUrl: productImageUrl(found.code, found.imageHash),
      inCart: cart,
      leadTime: leadTimeOf(found),
    };
    const base = {
      line: l.line,
      source: l.source,
      code: found.code,
      quantity: l.quantity,
      product,
      suggestions: [],
    };
    const notesOf = [
      ...(found.code !== l.code ? [`código escrito «${show(l.code)}»`] : []),
      ...(l.note ? [l.note.toLowerCase()] : []),
      ...(before > 0 ? ['el producto ya está en una línea anterior'] : []),
    ];
    const suffix = notesOf.length ? ` (${notesOf.join('; ')})` : '';
    if (!found.active) {
      lines.push({
        ...base,
        status: 'inactive',
        product: null,
        message: `${found.code} ya no está a la venta`,
      });
    } else if (found.stock === 0 && !product.leadTime) {
      lines.push({ ...base, status: 'no_stock', message: `Sin existencia${suffix}` });
    } else if (cart + before + l.quantity > found.stock && !product.leadTime) {
      const already = cart + before;
      lines.push({
        ...base,
        status: 'above_stock',
        message:
          `Límite de stock: hay ${found.stock} en existencia` +
          (already > 0 ? ` y ya lleva ${already}` : '') +
          `; pide ${l.quantity}${suffix}`,
      });
    } else if (cart + before + l.quantity > MAX_LINE_QUANTITY) {
      lines.push({
        ...base,
        status: 'above_stock',
        message: `La cantidad no puede ser mayor que ${MAX_LINE_QUANTITY}${suffix}`,
      });
    } else {
      // 'Sobre pedido' (decision 029): beyond stock is fine; the line says how much ships now and how much later.
      const { now, later } = splitQuantity(found.stock - Math.min(found.stock, cart + before), l.quantity);
      const split = product.leadTime ? splitText(now, later, product.leadTime) : null;
      lines.push({
        ...base,
        status: 'ok',
        message: split ? `Listo para agregar: ${split}${suffix}` : `Listo para agregar${suffix}`,
      });
    }
  }
  return { lines, notes };
}
