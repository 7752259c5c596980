import { z } from 'zod';
import { MAX_CART_LINES } from './cart.ts';
import { leadTimeSchema } from './catalog.ts';

/**
 * Quick order (/pedido_rapido, issue 18): the shopper pastes lines 'CÓDIGO CANTIDAD' or uploads a CSV; the server
 * reads and resolves each line against the catalogue and answers a preview per line. Nothing is added to the
 * cart by the server: the browser adds the lines marked `ok`, under the cart's own rules.
 */

/** At most as many lines as a cart holds products. */
export const QUICK_ORDER_MAX_LINES = MAX_CART_LINES;
/** Pasted text and uploaded files are capped (a lab's order is 10–40 lines; 100 lines fit in a few KB). */
export const QUICK_ORDER_MAX_TEXT = 50_000;
export const QUICK_ORDER_MAX_FILE_BYTES = 100_000;

export const quickOrderRequestSchema = z
  .object({
    /** Pasted lines. */
    text: z
      .string({ error: 'Pegue las líneas del pedido' })
      .max(QUICK_ORDER_MAX_TEXT, `El texto pegado no puede pasar de ${QUICK_ORDER_MAX_TEXT / 1000} KB`)
      .optional(),
    /** An uploaded file, base64 (the browser reads it; the server decides what it is). */
    file: z
      .object({
        name: z.string().max(200, 'Nombre de archivo demasiado largo'),
        base64: z
          .string()
          .max(
            Math.ceil(QUICK_ORDER_MAX_FILE_BYTES / 3) * 4,
            `El archivo no puede pasar de ${QUICK_ORDER_MAX_FILE_BYTES / 1000} KB`,
          ),
      })
      .optional(),
    /** What the cart already holds (codes and quantities only): the stock rule counts it, as on the product page. */
    cart: z
      .array(z.object({ code: z.string().max(64), quantity: z.number().int().min(0).max(1_000_000) }))
      .max(MAX_CART_LINES)
      .default([]),
  })
  .refine((b) => (b.text !== undefined) !== (b.file !== undefined), {
    message: 'Pegue las líneas del pedido o elija un archivo',
  });
export type QuickOrderRequest = z.infer<typeof quickOrderRequestSchema>;

export const quickOrderStatuses = [
  'ok',
  'not_found',
  'inactive',
  'no_stock',
  'above_stock',
  'invalid',
] as const;

export const quickOrderLineSchema = z.object({
  /** Line number in the pasted text or file (1-based), as the shopper sees it in an editor. */
  line: z.number().int(),
  /** The line as read (trimmed, shortened). */
  source: z.string(),
  status: z.enum(quickOrderStatuses),
  /** The product's code when it was found (in the catalogue's spelling). */
  code: z.string().nullable(),
  quantity: z.number().int().nullable(),
  /** What the shopper reads about the line, in Spanish. */
  message: z.string(),
  product: z
    .object({
      name: z.string(),
      /** The presentation's list price. */
      priceCents: z.number().int(),
      /** What the cart will charge per unit once these lines are in it (volume prices reached included). */
      unitPriceCents: z.number().int(),
      stock: z.number().int(),
      /** 'Sobre pedido' (decision 029): orderable beyond stock, with this lead time. */
      leadTime: leadTimeSchema.nullable().optional(),
      imageUrl: z.string().nullable(),
      inCart: z.number().int(),
    })
    .nullable(),
  /** For a code not found: products whose code or name is like it. */
  suggestions: z.array(z.object({ code: z.string(), name: z.string() })),
});
export type QuickOrderLine = z.infer<typeof quickOrderLineSchema>;

export const quickOrderResponseSchema = z.object({
  lines: z.array(quickOrderLineSchema),
  /** About the whole input (the file's encoding, …); empty when there is nothing to say. */
  notes: z.array(z.string()),
});
export type QuickOrderResponse = z.infer<typeof quickOrderResponseSchema>;
