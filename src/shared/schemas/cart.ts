import { z } from 'zod';
import { DELIVERY_METHODS } from '../delivery.ts';
import { lineQuantityMessage, MAX_CART_LINES, MAX_LINE_QUANTITY } from '../limits.ts';
import { PAYMENT_METHODS } from '../payment-methods.ts';
import { leadTimeSchema } from './catalog.ts';

/**
 * The cart API's payloads: the contract between src/server/cart and src/client/cart.
 * Money is integer centavos with IVA included (…Cents fields). Only codes and quantities travel to the server:
 * prices, names, stock and weights always come from the database (any extra field is ignored).
 */

/** From src/shared/limits.ts (MAX_LINE_QUANTITY from config/shop.json → limits). */
export { MAX_CART_LINES, MAX_LINE_QUANTITY };

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

export const cartLineInputSchema = z.object(
  { code, quantity },
  { error: 'Cada artículo debe indicar código y cantidad' },
);
export type CartLineInput = z.infer<typeof cartLineInputSchema>;

/** A list of { code, quantity }: at most 100 lines, each code once. */
export const cartLinesSchema = z
  .array(cartLineInputSchema, { error: 'Los artículos deben ser una lista' })
  .max(MAX_CART_LINES, `El carrito no puede tener más de ${MAX_CART_LINES} productos distintos`)
  .superRefine((items, ctx) => {
    const seen = new Set<string>();
    items.forEach((item, i) => {
      const key = item.code;
      if (seen.has(key))
        ctx.addIssue({
          code: 'custom',
          path: [i, 'code'],
          message: `El producto ${item.code} aparece más de una vez`,
        });
      seen.add(key);
    });
  });

export const deliveryMethodSchema = z.enum(DELIVERY_METHODS, { error: 'La forma de entrega no es válida' });

export const paymentMethodSchema = z.enum(PAYMENT_METHODS, {
  error: 'La forma de pago no es válida',
});

/** How an order is settled: a gateway method, or 'credit' (an institution's credit line, decision 060). */
export const orderPaymentMethodSchema = z.enum([...PAYMENT_METHODS, 'credit'], {
  error: 'La forma de pago no es válida',
});

/** POST /api/cart/quote */
export const quoteRequestSchema = z.object(
  {
    items: cartLinesSchema,
    /** The way of payment chosen at checkout: the total is refused above that method's maximum (decision 048). */
    paymentMethod: paymentMethodSchema.optional(),
    /** Issue 35: the way it travels (ground when left out); the quote's shipping is that way's. */
    deliveryMethod: deliveryMethodSchema.optional(),
    postalCode: z
      .string({ error: 'El código postal debe tener 5 dígitos' })
      .regex(/^\d{5}$/, 'El código postal debe tener 5 dígitos')
      .optional(),
  },
  { error: 'La solicitud debe ser un objeto JSON con la lista de artículos' },
);
export type QuoteRequest = z.infer<typeof quoteRequestSchema>;

export const quoteLineSchema = z.object({
  code: z.string(),
  /** null when the code is unknown or the product inactive (then nothing of it is priced). */
  name: z.string().nullable(),
  unitPriceCents: z.number().int(),
  quantity: z.number().int(),
  lineTotalCents: z.number().int(),
  stock: z.number().int(),
  /** Known, active and with stock for the quantity asked. */
  available: z.boolean(),
  /** Weight of the whole line (unit weight × quantity). */
  weightKg: z.number(),
  imageUrl: z.string().nullable(),
  /** Spanish message when the line cannot be bought as asked; null otherwise. */
  error: z.string().nullable(),
  /** The presentation ('1 L', 'caja con 100'), already part of `name`; null without presentations. */
  presentationLabel: z.string().nullable(),
  /** The presentation's own unit price; above `unitPriceCents` when a volume price applies (decision 021). */
  listPriceCents: z.number().int(),
  /** The institution's contract price (decision 059) is this line's price. */
  contract: z.boolean().optional(),
  /** The next volume price: 'Agregue {addUnits} más para pagar {unitPriceCents} c/u'; null when none is left. */
  nextBreak: z.object({ addUnits: z.number().int(), unitPriceCents: z.number().int() }).nullable(),
  /** 'Sobre pedido' (decision 029): the lead time in business days; null when sold from stock only. */
  leadTime: leadTimeSchema.nullable(),
  /** Of `quantity`, the units stock does not cover now (shipped within `leadTime`); 0 otherwise. */
  backordered: z.number().int(),
  /** Under the precursor law (decision 030): ordering it needs an RFC on file and the end-use declaration. */
  controlled: z.boolean(),
});
export type QuoteLine = z.infer<typeof quoteLineSchema>;

export const cartQuoteSchema = z.object({
  lines: z.array(quoteLineSchema),
  subtotalCents: z.number().int(),
  shippingCents: z.number().int(),
  /** The IVA contained in the total (prices include it). */
  ivaCents: z.number().int(),
  totalCents: z.number().int(),
  weightKg: z.number(),
  /** Every line known, active and within stock, and at least one line: the cart can be checked out as quoted. */
  ok: z.boolean(),
  /** The ways of payment whose maximum the total fits (decision 048); the checkout offers only these. */
  paymentMethods: z.array(paymentMethodSchema),
  /**
   * Issue 35: the way chosen (ground when none) and every way with its price and, when the hazardous-goods table
   * (src/shared/delivery.ts) forbids it for this cart, the reason; `shippingCents` above is the chosen way's.
   */
  delivery: z.object({
    method: deliveryMethodSchema,
    hazardous: z.boolean(),
    options: z.array(
      z.object({
        method: deliveryMethodSchema,
        label: z.string(),
        refusal: z.string().nullable(),
        shippingCents: z.number().int(),
      }),
    ),
  }),
});
export type CartQuote = z.infer<typeof cartQuoteSchema>;

/** One line of the saved (server) cart, with the product's current data for display. */
export const savedCartItemSchema = z.object({
  code: z.string(),
  name: z.string(),
  priceCents: z.number().int(),
  quantity: z.number().int(),
  stock: z.number().int(),
  imageUrl: z.string().nullable(),
  /** 'Sobre pedido' (decision 029): orderable beyond `stock`. */
  leadTime: leadTimeSchema.nullable().optional(),
});
export type SavedCartItem = z.infer<typeof savedCartItemSchema>;

/** GET /api/cart, PUT /api/cart and POST /api/cart/merge answer the saved cart. */
export const savedCartSchema = z.object({ items: z.array(savedCartItemSchema) });
export type SavedCart = z.infer<typeof savedCartSchema>;

/** PUT /api/cart (replace) and POST /api/cart/merge (local items at sign-in). */
export const cartWriteSchema = z.object(
  { items: cartLinesSchema },
  { error: 'La solicitud debe ser un objeto JSON con la lista de artículos' },
);
export type CartWrite = z.infer<typeof cartWriteSchema>;
