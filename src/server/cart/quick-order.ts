import { inArray } from 'drizzle-orm';
import { leadTimeOf, splitQuantity, splitText } from '../../shared/backorder.ts';
import { MAX_LINE_QUANTITY } from '../../shared/limits.ts';
import {
  QUICK_ORDER_MAX_FILE_BYTES,
  QUICK_ORDER_MAX_LINES,
  type QuickOrderLine,
  type QuickOrderRequest,
  type QuickOrderResponse,
} from '../../shared/schemas/quick-order.ts';
import { listProducts } from '../catalog/listing.ts';
import type { Db } from '../db/client.ts';
import { products } from '../db/schema.ts';
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
  | { line: number; source: string; code: string; quantity: number; note?: string }
  | { line: number; source: string; error: string };

const SOURCE_MAX = 80;
const show = (s: string) => (s.length > SOURCE_MAX ? `${s.slice(0, SOURCE_MAX)}…` : s);

/** A spreadsheet formula or a cell that a spreadsheet would run as one ('=cmd|…', '+…', '@…'). */
const FORMULA = /^[=+@]|^-[^\d]/;
const HEADER = /^(c[oó]digo|clave|code|sku|art[ií]culo|producto|n[uú]mero de parte)$/i;

/**
 * Splits the text into lines and each line into a code and a quantity. Cells are separated by tabs, commas or
 * semicolons (spreadsheets, CSV); a line without them by spaces, the last word being the quantity. Quotes
 * around cells are dropped. A first line that reads like a header is skipped. A missing quantity means 1.
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
    let cells = /[\t,;]/.test(source) ? source.split(/[\t,;]/) : source.split(/\s+/);
    cells = cells
      .map((c) =>
        c
          .trim()
          .replace(/^"(.*)"$/, '$1')
          .trim(),
      )
      .filter((c) => c !== '');
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
    if (cells.length > 1 && /^[\d.,]+$/.test(cells[cells.length - 1]!)) {
      quantityText = cells[cells.length - 1];
      codeCells = cells.slice(0, -1);
    } else if (cells.length > 2) {
      // 'CÓDIGO;DESCRIPCIÓN;CANTIDAD' from a system export: the first cell is the code, a later numeric one the quantity.
      const numeric = cells.slice(1).findLast((c) => /^\d+$/.test(c));
      if (numeric) {
        quantityText = numeric;
        codeCells = [cells[0]!];
      }
    }
    // Tab/comma/semicolon-separated: the code is the first cell; space-separated: the words before the quantity.
    const code = (/[\t,;]/.test(source) ? codeCells[0]! : codeCells.join(' ')).trim();
    if (code.length > 64) {
      lines.push({ line, source: show(source), error: 'El código es demasiado largo (hasta 64 caracteres)' });
      return;
    }
    if (quantityText === undefined) {
      lines.push({ line, source: show(source), code, quantity: 1, note: 'Sin cantidad: se toma 1' });
      return;
    }
    if (!/^\d+$/.test(quantityText)) {
      lines.push({
        line,
        source: show(source),
        error: `La cantidad «${show(quantityText)}» debe ser un número entero`,
      });
      return;
    }
    const quantity = Number(quantityText);
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
  const candidates = parsed.lines.flatMap((l) => ('code' in l ? spellings(l.code) : []));
  const rows =
    candidates.length === 0
      ? []
      : await db
          .select({
            code: products.code,
            name: products.name,
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
  const inCart = new Map(request.cart.map((c) => [c.code, c.quantity]));
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
    const found = spellings(l.code)
      .map((c) => byCode.get(c))
      .find((r) => r !== undefined);
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
      name: found.name,
      priceCents: found.priceCents,
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
