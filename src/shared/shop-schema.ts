import { z } from 'zod';
import { CARRIER_IDS } from './carriers.ts';

const optionalUrl = z.union([z.literal(''), z.url()]);
/** One payment method's maximum and the text that says where it comes from (the provider's page, the contract). */
const methodLimit = z.object({
  maxCents: z.number().int().positive().max(1_000_000_000_000),
  source: z.string().min(1),
});

/** The shape of config/shop.json, checked by the server at start (and by a test). */
/** A CFDI Serie (Anexo 20: 1 to 25 characters, without '|', the cadena's separator). */
const cfdiSerie = z.string().regex(/^[^|]{1,25}$/);

export const shopConfigSchema = z.object({
  legalName: z.string().min(1),
  tradeName: z.string().min(1),
  tagline: z.string(),
  bannerText: z.string(),
  address: z.object({
    street: z.string(),
    neighbourhood: z.string(),
    city: z.string(),
    state: z.string(),
    postalCode: z.string().regex(/^\d{5}$/),
    country: z.string(),
  }),
  phones: z.array(z.string()).min(1),
  hours: z.string(),
  email: z.email(),
  complaintsEmail: z.email(),
  privacyEmail: z.email(),
  whatsapp: z.string().regex(/^\d{10,15}$/),
  copyrightYear: z.number().int(),
  branches: z
    .array(
      z.object({
        name: z.string(),
        address: z.string(),
        phones: z.array(z.string()),
        email: z.email(),
        /** Opening hours, shown where the buyer chooses 'Recoger en sucursal' and in its mails (issue 35). */
        hours: z.string().min(1),
      }),
    )
    .length(3),
  social: z.object({
    facebook: optionalUrl,
    instagram: optionalUrl,
    linkedin: optionalUrl,
    youtube: optionalUrl,
  }),
  paymentMethodsUrl: optionalUrl,
  shipping: z.object({
    baseCents: z.number().int().nonnegative(),
    baseKg: z.number().positive(),
    extraKgCents: z.number().int().nonnegative(),
    /** Parcel by air (express) costs this much more than by ground, IVA included (issue 35). */
    airExtraCents: z.number().int().nonnegative(),
    /** Added to a parcel that carries a restricted hazardous product (src/shared/delivery.ts), IVA included. */
    hazardousSurchargeCents: z.number().int().nonnegative(),
    /** The carriers staff may ship with (src/shared/carriers.ts ids). */
    carriers: z.array(z.enum(CARRIER_IDS)).min(1),
    /** An order ready at a branch and not collected after this many days gets a reminder mail. */
    pickupReminderDays: z.number().int().min(1).max(60),
  }),
  invoicingWindowDays: z.number().int().positive(),
  /** Quotations (issue 20): their prices hold this many days (spec §9: 'prices firm 30 days'). */
  quotations: z.object({ validityDays: z.number().int().min(1).max(365) }),
  /**
   * Returns (issue 35, decision 062): calendar days after delivery (Mexico City) a buyer may ask to return; the
   * page /politica_de_devoluciones and the online return request both read it.
   */
  returns: z.object({ windowDays: z.number().int().min(1).max(365) }),
  /** CFDI issuer (used with the shop's own CSD) and SAT keys for products without their own. */
  invoicing: z.object({
    issuer: z.object({
      rfc: z.string().regex(/^[A-ZÑ&]{3,4}\d{6}[A-Z\d]{2}[A\d]$/),
      /** As on the Constancia de Situación Fiscal, without the régimen societario (CFDI 4.0). */
      name: z.string().min(1).max(300),
      regimenFiscal: z.string().regex(/^6\d\d$/),
      postalCode: z.string().regex(/^\d{5}$/),
    }),
    /**
     * The Serie of each CFDI type (decision 047), each with its own gap-free folios: ingreso (invoices), egreso
     * (credit notes), pago (CFDI de pago, for credit sales) and global (the monthly factura global, whose folio
     * is its period). SAT: up to 25 characters, no '|'.
     */
    series: z
      .object({
        ingreso: cfdiSerie,
        egreso: cfdiSerie,
        pago: cfdiSerie,
        global: cfdiSerie,
      })
      .refine((s) => new Set(Object.values(s)).size === 4, {
        message: 'Each CFDI type needs its own series (ingreso, egreso, pago and global must differ)',
      }),
    productKey: z.string().regex(/^\d{8}$/),
    unitKey: z.string().regex(/^[A-Z0-9]{2,3}$/),
    shippingProductKey: z.string().regex(/^\d{8}$/),
    shippingUnitKey: z.string().regex(/^[A-Z0-9]{2,3}$/),
    shippingDescription: z.string().min(1).max(1000),
  }),
  /**
   * Business limits of a purchase (src/shared/limits.ts): the most one payment of each method may be — card per
   * charge, SPEI transfer, cash at a store — each with where the figure comes from (decision 048), and the most
   * units of one product per line. They keep every amount far below Number.MAX_SAFE_INTEGER centavos.
   */
  limits: z.object({
    methods: z.object({
      card: methodLimit,
      spei: methodLimit,
      cash: methodLimit,
    }),
    maxLineQuantity: z.number().int().positive().max(1_000_000),
  }),
  /**
   * Delayed payments (issue 21): how long an order paid by SPEI transfer or cash at a store keeps its stock —
   * the Openpay charge's due_date is the end of that hold — and meses sin intereses on cards: the least total
   * that offers them and the plans offered (each must be enabled on the merchant's Openpay contract).
   */
  paymentMethods: z.object({
    speiHours: z.number().int().min(1).max(720),
    storeHours: z.number().int().min(1).max(720),
    msi: z.object({
      minCents: z.number().int().positive(),
      months: z.array(z.union([z.literal(3), z.literal(6), z.literal(9), z.literal(12)])),
    }),
  }),
  /**
   * Sales on credit (issue 34, decision 060): when the invoice PPD of an order on credit is issued — at shipment
   * (default: the debt and its due date start when the goods leave) or at once when the order is confirmed — and
   * how many days before and after its due date the reminder mails go.
   */
  credit: z.object({
    invoiceAt: z.enum(['shipment', 'order']),
    reminderDaysBefore: z.number().int().min(1).max(30),
    reminderDaysAfter: z.number().int().min(1).max(60),
  }),
});

export type ShopConfig = z.infer<typeof shopConfigSchema>;
