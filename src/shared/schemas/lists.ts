import { z } from 'zod';
import { lineQuantityMessage, MAX_CART_LINES, MAX_LINE_QUANTITY } from '../limits.ts';

/**
 * 'Mis listas' (issue 18, decision 031): the contract between src/server/lists and the browser. A list holds
 * product codes (presentations, decision 021) and quantities; prices, names and stock are always read from the
 * catalogue when the list is shown, never stored or trusted from the browser.
 */

/** Lists per account: a lab keeps a handful ('Consumibles mensuales', 'Práctica de química orgánica'). */
export const MAX_LISTS = 20;
/** Lines per list: as many as a cart holds, since the whole list goes to the cart in one step. */
export const MAX_LIST_LINES = MAX_CART_LINES;
export const MAX_LIST_NAME = 80;

export const tooManyListsMessage = () =>
  `Puede guardar hasta ${MAX_LISTS} listas; elimine una que ya no use antes de crear otra`;
export const tooManyLinesMessage = () =>
  `Una lista admite hasta ${MAX_LIST_LINES} productos distintos (los que caben en un carrito)`;

export const listNameSchema = z
  .string({ error: 'Escriba el nombre de la lista' })
  .trim()
  .min(1, 'Escriba el nombre de la lista')
  .max(MAX_LIST_NAME, `El nombre de la lista puede tener hasta ${MAX_LIST_NAME} caracteres`)
  .refine((s) => !/\p{Cc}/u.test(s), 'El nombre de la lista tiene caracteres que no son texto');

const code = z
  .string({ error: 'El código del producto es obligatorio' })
  .trim()
  .min(1, 'El código del producto es obligatorio')
  .max(64, 'El código del producto es demasiado largo');

const quantity = z
  .number({ error: 'La cantidad debe ser un número entero' })
  .int('La cantidad debe ser un número entero')
  .min(1, 'La cantidad debe ser mayor que 0')
  .max(MAX_LINE_QUANTITY, lineQuantityMessage());

export const listLineInputSchema = z.object({ code, quantity });

/** POST /api/lists: a new list, empty or with lines (the cart saved as a list). */
export const listCreateSchema = z.object({
  name: listNameSchema,
  lines: z
    .array(listLineInputSchema)
    .max(MAX_LIST_LINES, tooManyLinesMessage())
    .superRefine((lines, ctx) => {
      const seen = new Set<string>();
      lines.forEach((l, i) => {
        if (seen.has(l.code))
          ctx.addIssue({ code: 'custom', path: [i, 'code'], message: `El código ${l.code} está repetido` });
        seen.add(l.code);
      });
    })
    .default([]),
});
export type ListCreate = z.infer<typeof listCreateSchema>;

export const listRenameSchema = z.object({ name: listNameSchema });
export const listQuantitySchema = z.object({ quantity });

export const listIdParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'Lista no encontrada' })
    .int('Lista no encontrada')
    .min(1, 'Lista no encontrada')
    .max(2_147_483_647, 'Lista no encontrada'),
});
export const listLineParamsSchema = listIdParamsSchema.extend({ code });
export const sharedListParamsSchema = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,64}$/, 'Lista no encontrada'),
});

/** One line as shown: the catalogue's data today, or null when the product is no longer sold. */
export const listLineSchema = z.object({
  code: z.string(),
  quantity: z.number().int(),
  product: z
    .object({
      /** With the presentation ('Ácido sulfúrico, 1 L'), as on the cart and the order. */
      name: z.string(),
      /** The catalogue's unit price today (volume prices apply in the cart). */
      priceCents: z.number().int(),
      stock: z.number().int(),
      imageUrl: z.string().nullable(),
    })
    .nullable(),
  /**
   * Spanish note when the line cannot be bought as saved ('Ya no está a la venta', 'Solo hay 3 disponibles'), or,
   * 'sobre pedido', when it ships later ('Sobre pedido · Entrega en 10–15 días hábiles').
   */
  note: z.string().nullable(),
});
export type ListLine = z.infer<typeof listLineSchema>;

export const listSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  lineCount: z.number().int(),
  shared: z.boolean(),
  updatedAt: z.string(),
});
export type ListSummary = z.infer<typeof listSummarySchema>;
export const listSummariesSchema = z.object({ lists: z.array(listSummarySchema) });

/** The owner's view: the lines and, when shared, the link's path. */
export const listDetailSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  updatedAt: z.string(),
  /** '/listas/compartida/<token>' while shared; null otherwise. */
  sharePath: z.string().nullable(),
  lines: z.array(listLineSchema),
});
export type ListDetail = z.infer<typeof listDetailSchema>;

/** What a colleague sees through the link: the name and the lines, nothing about the owner. */
export const sharedListSchema = z.object({
  name: z.string(),
  updatedAt: z.string(),
  lines: z.array(listLineSchema),
});
export type SharedList = z.infer<typeof sharedListSchema>;
