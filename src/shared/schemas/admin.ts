import { z } from 'zod';
import { parseCas } from '../cas.ts';
import {
  GRADES,
  PICTOGRAM_CODES,
  type PictogramCode,
  parseGrade,
  parseMolarMass,
  parseStatementCodes,
  type SignalWord,
} from '../ghs.ts';
import { parsePriceToCents } from '../money.ts';
import { addressSchema } from './common.ts';
import { backorderShape, invoiceStateSchema, orderStatusSchema } from './orders.ts';

/**
 * The back-office API (/api/admin/*): the contract between src/server/admin and src/client/admin.
 * Money is integer centavos with IVA included; prices are typed by staff in pesos, with a decimal
 * point or a decimal comma ('1234.50', '1234,50', '$1,234.50').
 */

export const REQUIRED = 'No deje vacío este campo';
export const NO_PERMISSION = 'No tiene permiso para esta acción';

const page = z.coerce
  .number({ error: 'Página inválida' })
  .int('Página inválida')
  .min(1, 'Página inválida')
  .max(100_000, 'Página inválida')
  .default(1);

export const isoDay = (message: string) =>
  z
    .string({ error: message })
    .regex(/^\d{4}-\d{2}-\d{2}$/, message)
    .refine((v) => {
      const d = new Date(`${v}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
    }, message);

export const pageInfoSchema = {
  total: z.number().int(),
  page: z.number().int(),
  pages: z.number().int(),
};

// ---- Orders ------------------------------------------------------------------------------------

/** GET /api/admin/orders */
export const adminOrdersQuerySchema = z.object({
  status: orderStatusSchema.optional().or(z.literal('').transform(() => undefined)),
  /** YYYY-MM-DD, Mexico City day (inclusive). */
  from: isoDay('Fecha inicial inválida')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  to: isoDay('Fecha final inválida')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** An order number, an e-mail (or part of one) or an RFC. */
  q: z.string().trim().max(100, 'La búsqueda es demasiado larga').optional(),
  page,
});
export type AdminOrdersQuery = z.input<typeof adminOrdersQuerySchema>;

export const adminOrderSummarySchema = z.object({
  number: z.number().int(),
  date: z.string(),
  status: orderStatusSchema,
  statusLabel: z.string(),
  customerName: z.string(),
  email: z.string(),
  totalCents: z.number().int(),
  trackingGuide: z.string(),
  invoiceState: invoiceStateSchema,
  rfc: z.string().nullable(),
});
export type AdminOrderSummary = z.infer<typeof adminOrderSummarySchema>;

export const adminOrderListSchema = z.object({ items: z.array(adminOrderSummarySchema), ...pageInfoSchema });
export type AdminOrderList = z.infer<typeof adminOrderListSchema>;

export const auditEntrySchema = z.object({
  id: z.number().int(),
  actor: z.string(),
  action: z.string(),
  actionLabel: z.string(),
  entityType: z.string(),
  entityId: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const adminOrderDetailSchema = adminOrderSummarySchema.extend({
  userId: z.number().int(),
  phone: z.string(),
  paidAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  cancelReason: z.string().nullable(),
  shippedAt: z.string().nullable(),
  deliveryProvider: z.string().nullable(),
  deliveryDate: z.string().nullable(),
  address: addressSchema,
  /** The buyer's purchase-order number and the quotation the order came from (issue 20). */
  purchaseOrder: z.string().nullable(),
  quotationFolio: z.string().nullable(),
  lines: z.array(
    z.object({
      code: z.string(),
      description: z.string(),
      unitPriceCents: z.number().int(),
      quantity: z.number().int(),
      lineTotalCents: z.number().int(),
      ...backorderShape,
    }),
  ),
  /** YYYY-MM-DD: by when what was in stock ships (decision 029); null for orders placed before. */
  shipNowBy: z.string().nullable(),
  subtotalCents: z.number().int(),
  shippingCents: z.number().int(),
  ivaCents: z.number().int(),
  refundedCents: z.number().int(),
  payments: z.array(
    z.object({
      gateway: z.string(),
      chargeId: z.string().nullable(),
      status: z.string(),
      amountCents: z.number().int(),
      refundedCents: z.number().int(),
      createdAt: z.string(),
    }),
  ),
  /** Where the money stands after the payment (refunds, chargebacks): null until paid (issue 14). */
  paymentState: z.enum(['paid', 'partially_refunded', 'refunded', 'in_dispute', 'lost']).nullable(),
  /** What staff must look at about the money (a refund in Openpay's dashboard, a chargeback, a foreign charge). */
  paymentAlerts: z.array(z.object({ kind: z.string(), message: z.string(), createdAt: z.string() })),
  /** What staff may do now. */
  actions: z.object({
    prepare: z.boolean(),
    ship: z.boolean(),
    deliver: z.boolean(),
    cancel: z.boolean(),
    /** Why 'Cancelar con reembolso' is not offered, when it is not. */
    cancelBlockedReason: z.string().nullable(),
  }),
  history: z.array(auditEntrySchema),
  /** The end-use declaration of an order with controlled chemicals (decision 030); null for the others. */
  controlledDeclaration: z
    .object({
      products: z.array(z.object({ code: z.string(), name: z.string(), quantity: z.number().int() })),
      rfc: z.string(),
      razonSocial: z.string(),
      declaredUse: z.string(),
      textVersion: z.string(),
      acceptedText: z.string(),
      acceptedAt: z.string(),
    })
    .nullable(),
});
export type AdminOrderDetail = z.infer<typeof adminOrderDetailSchema>;

export const TRACKING_GUIDE_PLACEHOLDER = 'Sin asignar';

/** POST /api/admin/orders/:number/ship */
export const shipOrderSchema = z.object({
  trackingGuide: z
    .string({ error: REQUIRED })
    .trim()
    .min(1, 'Escriba la guía de rastreo')
    .max(60, 'La guía admite hasta 60 caracteres')
    .regex(/^[A-Za-z0-9 ._/-]+$/, 'La guía solo admite letras, números, espacios y - . _ /')
    .refine(
      (v) => v.toLowerCase() !== TRACKING_GUIDE_PLACEHOLDER.toLowerCase(),
      'Escriba la guía de rastreo',
    ),
  deliveryProvider: z
    .string({ error: REQUIRED })
    .trim()
    .min(1, 'Escriba la paquetería')
    .max(60, 'La paquetería admite hasta 60 caracteres'),
  deliveryDate: isoDay('Escriba la fecha de entrega estimada'),
});
export type ShipOrderInput = z.input<typeof shipOrderSchema>;

/** POST /api/admin/orders/:number/cancel */
export const adminCancelOrderSchema = z.object({
  reason: z
    .string({ error: REQUIRED })
    .trim()
    .min(5, 'Escriba el motivo de la cancelación (al menos 5 caracteres)')
    .max(300, 'El motivo admite hasta 300 caracteres'),
});
export type AdminCancelOrderInput = z.input<typeof adminCancelOrderSchema>;

export const adminOrderActionResponseSchema = z.object({
  message: z.string(),
  order: adminOrderDetailSchema,
});

// ---- Products ----------------------------------------------------------------------------------

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

/** A list of H or P codes typed in the form ('H290 H314 H335') → the codes, or a Spanish issue naming the code. */
const statementCodes = (kind: 'H' | 'P') =>
  z
    .string()
    .max(2000, 'Demasiados códigos')
    .transform((v, ctx) => {
      const parsed = parseStatementCodes(v, kind);
      if ('codes' in parsed) return parsed.codes;
      const what = kind === 'H' ? 'una indicación de peligro' : 'un consejo de prudencia';
      ctx.addIssue({
        code: 'custom',
        message:
          'unknown' in parsed
            ? `«${parsed.unknown}» no es ${what} de la lista oficial del SGA`
            : `${parsed.tooMany} códigos: el máximo es 40`,
      });
      return z.NEVER;
    })
    .optional();

/**
 * Reagent data (decision 027). Each field is optional: a request without it keeps the stored value (the form
 * always sends them all). The safety fields belong to a family's base; the server refuses them on a presentation.
 */
export const reagentFieldsSchema = z.object({
  casNumber: z
    .string()
    .trim()
    .transform((v, ctx) => {
      if (v === '') return null;
      const cas = parseCas(v);
      if (cas === null) {
        ctx.addIssue({
          code: 'custom',
          message: 'Número CAS inválido: el dígito verificador no corresponde (p. ej. 7664-93-9)',
        });
        return z.NEVER;
      }
      return cas;
    })
    .optional(),
  formula: z
    .string()
    .trim()
    .max(100, 'La fórmula admite hasta 100 caracteres')
    .transform((v) => (v === '' ? null : v))
    .optional(),
  molarMass: z
    .string()
    .trim()
    .transform((v, ctx) => {
      if (v === '') return null;
      const n = parseMolarMass(v);
      if (n === null) {
        ctx.addIssue({
          code: 'custom',
          message: 'Escriba la masa molar en g/mol, un número mayor que cero (p. ej. 36.46)',
        });
        return z.NEVER;
      }
      return n;
    })
    .optional(),
  grade: z
    .string()
    .trim()
    .transform((v, ctx) => {
      if (v === '') return null;
      const g = parseGrade(v);
      if (g === null) {
        ctx.addIssue({
          code: 'custom',
          message: `Grado desconocido; use ${GRADES.map((x) => x.code).join(', ')}`,
        });
        return z.NEVER;
      }
      return g;
    })
    .optional(),
  ghsPictograms: z
    .array(z.string(), { error: 'Pictogramas inválidos' })
    .max(9, 'Pictogramas inválidos')
    .refine((list) => list.every((c) => (PICTOGRAM_CODES as readonly string[]).includes(c)), {
      message: 'Pictograma desconocido: use GHS01 a GHS09',
    })
    .transform((list) => PICTOGRAM_CODES.filter((c) => list.includes(c)) as PictogramCode[])
    .optional(),
  signalWord: z
    .enum(['', 'danger', 'warning'], { error: 'Palabra de advertencia inválida (Peligro o Atención)' })
    .transform((v) => (v === '' ? null : (v as SignalWord)))
    .optional(),
  hazardStatements: statementCodes('H'),
  precautionaryStatements: statementCodes('P'),
  storageConditions: z
    .string()
    .trim()
    .max(300, 'Las condiciones de almacenamiento admiten hasta 300 caracteres')
    .transform((v) => (v === '' ? null : v))
    .optional(),
});
/** Days of a lead time as typed in the form: '' → null; whole, not negative (the rest: leadTimeFieldsProblem). */
const leadDays = (label: string) =>
  z
    .string({ error: `${label}: escriba un número entero de días hábiles` })
    .trim()
    .default('')
    .refine(
      (v) => v === '' || /^-?\d+(?:[.,]\d+)?$/.test(v),
      `${label}: escriba un número entero de días hábiles`,
    )
    .refine((v) => !/[.,]/.test(v), `${label} debe ser un número entero`)
    .refine((v) => !v.startsWith('-'), `${label} no puede ser negativo`)
    .refine((v) => v.length <= 4, `${label}: demasiados días`)
    .transform((v) => (v === '' ? null : Number(v)));

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

// ---- Catalogue import --------------------------------------------------------------------------

export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;

/** POST /api/admin/import: the CSV's raw bytes in base64, so the server judges the encoding. */
export const importRequestSchema = z.object({
  filename: z.string().max(200).default('productos.csv'),
  contentBase64: base64(IMPORT_MAX_BYTES),
  dryRun: z.boolean().default(true),
  /** Import nothing when any row is rejected. */
  strict: z.boolean().default(false),
});
export type ImportRequest = z.input<typeof importRequestSchema>;

export const importReportSchema = z.object({
  dryRun: z.boolean(),
  /** Rows read (without the header). */
  rows: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  rejected: z.array(
    z.object({ line: z.number().int(), code: z.string().nullable(), reasons: z.array(z.string()) }),
  ),
  batches: z.array(
    z.object({
      index: z.number().int(),
      firstLine: z.number().int(),
      lastLine: z.number().int(),
      rows: z.number().int(),
      landed: z.boolean(),
      error: z.string().nullable(),
    }),
  ),
  brandsCreated: z.array(z.string()),
  /** A few of the changes, for the screen: code → what changed. */
  changes: z.array(
    z.object({
      line: z.number().int(),
      code: z.string(),
      kind: z.enum(['created', 'updated']),
      fields: z.array(z.string()),
    }),
  ),
  message: z.string(),
});
export type ImportReport = z.infer<typeof importReportSchema>;

// ---- Invoices, customers, audit ----------------------------------------------------------------

export const adminInvoicesQuerySchema = z.object({
  status: z.enum(['', 'issued', 'cancelled', 'pending'], { error: 'Estado inválido' }).default(''),
  q: z.string().trim().max(100, 'La búsqueda es demasiado larga').optional(),
  page,
});
export type AdminInvoicesQuery = z.input<typeof adminInvoicesQuerySchema>;

export const INVOICE_STATUS_LABELS: Record<string, string> = {
  pending: 'Generándose',
  issued: 'Vigente',
  cancelled: 'Cancelada',
};

export const adminInvoiceRowSchema = z.object({
  id: z.number().int(),
  orderNumber: z.number().int(),
  status: z.string(),
  statusLabel: z.string(),
  uuid: z.string().nullable(),
  rfc: z.string(),
  nombreFiscal: z.string(),
  email: z.string(),
  totalCents: z.number().int(),
  test: z.boolean(),
  issuedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
});
export type AdminInvoiceRow = z.infer<typeof adminInvoiceRowSchema>;
export const adminInvoiceListSchema = z.object({ items: z.array(adminInvoiceRowSchema), ...pageInfoSchema });

export const adminCustomersQuerySchema = z.object({
  q: z.string().trim().max(100, 'La búsqueda es demasiado larga').optional(),
  page,
});
export type AdminCustomersQuery = z.input<typeof adminCustomersQuerySchema>;

export const adminCustomerRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  role: z.enum(['customer', 'staff']),
  ordersCount: z.number().int(),
  createdAt: z.string(),
});
export type AdminCustomerRow = z.infer<typeof adminCustomerRowSchema>;
export const adminCustomerListSchema = z.object({
  items: z.array(adminCustomerRowSchema),
  ...pageInfoSchema,
});

/** PUT /api/admin/customers/:id/purchase-order */
export const customerPurchaseOrderSchema = z.object(
  { required: z.boolean({ error: 'Indique si la orden de compra es obligatoria' }) },
  { error: 'La solicitud debe ser un objeto JSON' },
);

export const customerIdParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'Cliente no encontrado' })
    .int('Cliente no encontrado')
    .min(1, 'Cliente no encontrado')
    .max(2_147_483_647, 'Cliente no encontrado'),
});

export const adminCustomerDetailSchema = adminCustomerRowSchema.extend({
  address: addressSchema.nullable(),
  /** Every order of this buyer needs a purchase-order number (issue 20). */
  requiresPurchaseOrder: z.boolean(),
  totalSpentCents: z.number().int(),
  orders: z.array(adminOrderSummarySchema),
});
export type AdminCustomerDetail = z.infer<typeof adminCustomerDetailSchema>;

export const auditQuerySchema = z.object({
  entityType: z.string().max(40).optional(),
  entityId: z.string().max(80).optional(),
  page,
});
export const auditListSchema = z.object({ items: z.array(auditEntrySchema), ...pageInfoSchema });

export const AUDIT_ACTION_LABELS: Record<string, string> = {
  'order.prepare': 'Pedido en preparación',
  'order.ship': 'Pedido enviado',
  'order.deliver': 'Pedido entregado',
  'order.cancel': 'Pedido cancelado con reembolso',
  'product.create': 'Producto creado',
  'product.update': 'Producto modificado',
  'product.activate': 'Producto activado',
  'product.deactivate': 'Producto desactivado',
  'product.image': 'Imagen cambiada',
  'product.datasheet': 'Ficha técnica cambiada',
  'product.hds': 'Hoja de datos de seguridad (HDS) cambiada',
  'product.hds_remove': 'Hoja de datos de seguridad (HDS) eliminada',
  'product.certificate': 'Certificado de análisis agregado',
  'product.certificate_remove': 'Certificado de análisis eliminado',
  'stock.adjust': 'Ajuste de existencia',
  'catalogue.import': 'Importación de catálogo',
  'synonym.create': 'Sinónimo de búsqueda agregado',
  'synonym.update': 'Sinónimo de búsqueda modificado',
  'synonym.delete': 'Sinónimo de búsqueda eliminado',
  'invoice.cancel': 'Factura cancelada',
  'staff.create': 'Cuenta de personal creada',
  'staff.promote': 'Cuenta promovida a personal',
  'quotation.revise': 'Cotización ajustada y reenviada',
  'quotation.extend': 'Vigencia de cotización extendida',
  'customer.purchase-order': 'Orden de compra obligatoria cambiada',
  'controlled.export': 'Exportación de ventas de productos controlados',
};

/** GET /api/admin/controlled-sales.csv (decision 030): Mexico City days, both inclusive, at most a year. */
export const controlledSalesQuerySchema = z.object({
  from: isoDay('Fecha inicial inválida (AAAA-MM-DD)'),
  to: isoDay('Fecha final inválida (AAAA-MM-DD)'),
});
export const controlledSalesSchema = z.object({
  orders: z.number().int(),
  rows: z.array(
    z.object({
      date: z.string(),
      orderNumber: z.number().int(),
      status: z.string(),
      code: z.string(),
      name: z.string(),
      quantity: z.number().int(),
      buyer: z.string(),
      email: z.string(),
      rfc: z.string(),
      razonSocial: z.string(),
      declaredUse: z.string(),
    }),
  ),
});
export type ControlledSales = z.infer<typeof controlledSalesSchema>;

/**
 * GET /api/admin/payments/delayed (issue 21): SPEI and store orders awaiting payment with their deadlines, and the
 * queue 'Pago recibido fuera de plazo' (paid after the order expired and its stock was released).
 */
const delayedRow = z.object({
  number: z.number().int(),
  date: z.string(),
  customerName: z.string(),
  email: z.string(),
  methodLabel: z.string(),
  totalCents: z.number().int(),
});
export const adminDelayedPaymentsSchema = z.object({
  awaiting: z.array(delayedRow.extend({ deadline: z.string() })),
  late: z.array(
    delayedRow.extend({
      latePaymentAt: z.string(),
      chargeId: z.string().nullable(),
      cancelledAt: z.string().nullable(),
    }),
  ),
});
export type AdminDelayedPayments = z.infer<typeof adminDelayedPaymentsSchema>;
