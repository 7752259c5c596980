import { z } from 'zod';

const optionalUrl = z.union([z.literal(''), z.url()]);

/** The shape of config/shop.json, checked by the server at start (and by a test). */
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
  }),
  invoicingWindowDays: z.number().int().positive(),
});

export type ShopConfig = z.infer<typeof shopConfigSchema>;
