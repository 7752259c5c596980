import { z } from 'zod';
import { parsePriceToCents } from '../../money.ts';
import { page, pageInfoSchema, REQUIRED } from './common.ts';
import { reagentFieldsSchema } from './product-safety.ts';
import { leadDays } from './product-sobre-pedido.ts';

/** Products: fields of the form and the API, list, media, stock. Part of the back-office API contract (../admin.ts). */
export const PRODUCT_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,63}$/;
export const productCodeSchema = z
  .string({ error: REQUIRED })
  .trim()
  .min(1, REQUIRED)
  .regex(PRODUCT_CODE_PATTERN, 'Código inválido: letras, números y - . _ / (hasta 64)');

export const MAX_PRICE_CENTS = 1_000_000_000;
export const PRICE_MESSAGE = 'Escriba un precio válido, p. ej. 1234.50 o 1234,50';

/** A price typed in pesos ('1234.50', '1234,50', '$1,234.50') → centavos. */
export const priceTextSchema = z
  .string({ error: REQUIRED })
  .trim()
  .min(1, REQUIRED)
  .transform((v, ctx) => {
    const cents = parsePriceToCents(v);
    if (cents === null || cents > MAX_PRICE_CENTS) {
      ctx.addIssue({ code: 'custom', message: PRICE_MESSAGE });
      return z.NEVER;
    }
    return cents;
  });

/** A decimal typed with a point or a comma ('1.5', '1,5') → number. */
export function parseDecimal(text: string): number | null {
  const s = text.trim().replace(',', '.');
  if (!/^\d{1,6}(\.\d{1,3})?$/.test(s)) return null;
  return Number(s);
}

export const weightTextSchema = z
  .string({ error: REQUIRED })
  .trim()
  .transform((v, ctx) => {
    if (v === '') return 0;
    const n = parseDecimal(v);
    if (n === null) {
      ctx.addIssue({
        code: 'custom',
        message: 'Escriba el peso en kg, p. ej. 1.25 o 1,25 (hasta 3 decimales)',
      });
      return z.NEVER;
    }
    return n;
  });

export const SAT_PRODUCT_KEY = /^\d{8}$/;
export const SAT_UNIT_KEY = /^[A-Z0-9]{2,3}$/;

const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} admite hasta ${max} caracteres`)
    .optional()
    .default('')
    .transform((v) => (v === '' ? null : v));

/** POST /api/admin/products and PUT /api/admin/products/:code (without code). */
export const productFieldsSchema = z.object({
  name: z
    .string({ error: REQUIRED })
    .trim()
    .min(1, REQUIRED)
    .max(200, 'El nombre admite hasta 200 caracteres'),
  brand: optionalText(80, 'La marca'),
  groupClas: z.string({ error: 'Elija un grupo' }).trim().min(1, 'Elija un grupo').max(40, 'Grupo inválido'),
  line: optionalText(80, 'La línea'),
  type: optionalText(80, 'El tipo'),
  price: priceTextSchema,
  weightKg: weightTextSchema,
  shortDesc: z.string().trim().max(500, 'La descripción corta admite hasta 500 caracteres').default(''),
  longDescHtml: z.string().max(100_000, 'La descripción larga admite hasta 100,000 caracteres').default(''),
  satProductKey: z
    .string()
    .trim()
    .default('')
    .refine((v) => v === '' || SAT_PRODUCT_KEY.test(v), 'La clave de producto SAT tiene 8 dígitos')
    .transform((v) => (v === '' ? null : v)),
  satUnitKey: z
    .string()
    .trim()
    .toUpperCase()
    .default('')
    .refine(
      (v) => v === '' || SAT_UNIT_KEY.test(v),
      'La clave de unidad SAT tiene 2 o 3 caracteres (p. ej. H87)',
    )
    .transform((v) => (v === '' ? null : v)),
  active: z.boolean().default(true),
  /** The family's base code (decision 021); empty = the product is its own family. */
  familyCode: z
    .string()
    .trim()
    .max(64, 'El código de familia admite hasta 64 caracteres')
    .default('')
    .transform((v) => (v === '' ? null : v)),
  presentationLabel: optionalText(60, 'La presentación'),
  /** Volume prices as the import writes them: '10:145.00;50:130.00' (checked by the server against the price). */
  priceBreaks: z.string().trim().max(300, 'Los precios por volumen admiten hasta 300 caracteres').default(''),
  ...reagentFieldsSchema.shape,
  /** 'Sobre pedido' (decision 029): orderable beyond stock, delivered in leadMinDays–leadMaxDays business days. */
  backorderable: z.boolean().default(false),
  leadMinDays: leadDays('Los días mínimos de entrega'),
  leadMaxDays: leadDays('Los días máximos de entrega'),
  /**
   * Under the precursor law (decision 030). Set on a family's base; a presentation takes its base's value (left
   * out, or equal to it; a different value is refused). Left out on a base: unchanged (new product: no).
   */
  controlled: z.boolean({ error: 'Indique si es un producto controlado' }).optional(),
});
export type ProductFieldsInput = z.input<typeof productFieldsSchema>;
export type ProductFields = z.output<typeof productFieldsSchema>;

export const createProductSchema = productFieldsSchema.extend({
  code: productCodeSchema,
  /** Initial stock (a ledger row 'adjustment'). */
  stock: z.coerce
    .number({ error: 'Escriba una existencia válida' })
    .int('La existencia es un número entero')
    .min(0, 'La existencia no puede ser negativa')
    .max(1_000_000, 'Existencia demasiado grande')
    .default(0),
});
export type CreateProductInput = z.input<typeof createProductSchema>;

export const productCodeParamsSchema = z.object({
  code: z.string().min(1, 'Producto no encontrado').max(64, 'Producto no encontrado'),
});

export const adminProductsQuerySchema = z.object({
  q: z.string().trim().max(100, 'La búsqueda es demasiado larga').optional(),
  status: z.enum(['all', 'active', 'inactive'], { error: 'Estado inválido' }).default('all'),
  /** 'fallback': only products without their own SAT keys (their invoices use config/shop.json's default). */
  satKeys: z.enum(['all', 'fallback'], { error: 'Filtro de claves SAT inválido' }).default('all'),
  page,
});
export type AdminProductsQuery = z.input<typeof adminProductsQuerySchema>;

export const adminProductRowSchema = z.object({
  code: z.string(),
  name: z.string(),
  brand: z.string().nullable(),
  groupClas: z.string().nullable(),
  groupName: z.string().nullable(),
  priceCents: z.number().int(),
  stock: z.number().int(),
  active: z.boolean(),
  imageUrl: z.string().nullable(),
  /** No ClaveProdServ or ClaveUnidad of its own: invoices use the configured default for it. */
  usesSatFallback: z.boolean(),
});
export type AdminProductRow = z.infer<typeof adminProductRowSchema>;
export const adminProductListSchema = z.object({ items: z.array(adminProductRowSchema), ...pageInfoSchema });
export type AdminProductList = z.infer<typeof adminProductListSchema>;

export const adminProductSchema = adminProductRowSchema.extend({
  line: z.string().nullable(),
  type: z.string().nullable(),
  weightKg: z.number(),
  shortDesc: z.string(),
  longDescHtml: z.string(),
  satProductKey: z.string().nullable(),
  satUnitKey: z.string().nullable(),
  datasheetUrl: z.string().nullable(),
  updatedAt: z.string(),
  familyCode: z.string().nullable(),
  presentationLabel: z.string().nullable(),
  /** '10:145.00;50:130.00', empty without volume prices. */
  priceBreaks: z.string(),
  casNumber: z.string().nullable(),
  formula: z.string().nullable(),
  molarMass: z.number().nullable(),
  grade: z.string().nullable(),
  ghsPictograms: z.array(z.string()),
  signalWord: z.string().nullable(),
  hazardStatements: z.array(z.string()),
  precautionaryStatements: z.array(z.string()),
  storageConditions: z.string().nullable(),
  backorderable: z.boolean(),
  leadMinDays: z.number().int().nullable(),
  leadMaxDays: z.number().int().nullable(),
  controlled: z.boolean(),
});
export type AdminProduct = z.infer<typeof adminProductSchema>;
export const adminProductResponseSchema = z.object({ message: z.string(), product: adminProductSchema });

export const setActiveSchema = z.object({
  active: z.boolean({ error: 'Indique si el producto está activo' }),
});

export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const DATASHEET_MAX_BYTES = 10 * 1024 * 1024;
/** A file sent in base64; `what` names it in the messages ('el archivo', 'la HDS (PDF)'). */
export const base64 = (max: number, what = 'el archivo') => {
  const What = what.charAt(0).toUpperCase() + what.slice(1);
  return (
    z
      .string({ error: `Falta ${what}` })
      .min(1, `Falta ${what}`)
      // Base64 is 4/3 of the bytes; the exact byte limit is checked after decoding.
      .max(Math.ceil((max * 4) / 3) + 1024, `${What} supera el límite de ${max / 1024 / 1024} MB`)
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, `${What} no se recibió completo`)
  );
};

/** PUT /api/admin/products/:code/image (JPEG, PNG or WebP up to 5 MB). */
export const uploadImageSchema = z.object({ contentBase64: base64(IMAGE_MAX_BYTES) });
/** PUT /api/admin/products/:code/datasheet (PDF up to 10 MB). */
export const uploadDatasheetSchema = z.object({ contentBase64: base64(DATASHEET_MAX_BYTES) });

/** POST /api/admin/products/:code/stock */
export const stockAdjustmentSchema = z.object({
  delta: z.coerce
    .number({ error: 'Escriba la cantidad a sumar o restar' })
    .int('La cantidad es un número entero')
    .refine((v) => v !== 0, 'La cantidad no puede ser cero')
    .refine((v) => Math.abs(v) <= 1_000_000, 'Cantidad demasiado grande'),
  reason: z
    .string({ error: REQUIRED })
    .trim()
    .min(3, 'Escriba el motivo del ajuste')
    .max(200, 'El motivo admite hasta 200 caracteres'),
});
export type StockAdjustmentInput = z.input<typeof stockAdjustmentSchema>;

export const STOCK_REASON_LABELS: Record<string, string> = {
  seed: 'Carga inicial',
  import: 'Importación',
  adjustment: 'Ajuste manual',
  order_reserve: 'Pedido',
  order_release: 'Pago no completado',
  order_cancel: 'Cancelación de pedido',
};

export const stockMovementSchema = z.object({
  id: z.number().int(),
  delta: z.number().int(),
  reason: z.string(),
  reasonLabel: z.string(),
  orderNumber: z.number().int().nullable(),
  note: z.string().nullable(),
  actor: z.string().nullable(),
  createdAt: z.string(),
});
export type StockMovement = z.infer<typeof stockMovementSchema>;
export const stockMovementsSchema = z.object({
  stock: z.number().int(),
  movements: z.array(stockMovementSchema),
});

export const catalogOptionsSchema = z.object({
  brands: z.array(z.string()),
  groups: z.array(z.object({ clas: z.string(), name: z.string(), parentClas: z.string().nullable() })),
});
export type CatalogOptions = z.infer<typeof catalogOptionsSchema>;
