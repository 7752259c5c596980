import { z } from 'zod';
import { COUNTRY, STATE_VALUES } from '../states.ts';
import {
  apellidoMatSchema,
  apellidoPatSchema,
  currentPasswordSchema,
  emailSchema,
  MSG,
  NAME_PATTERN,
  newPasswordSchema,
  nombreSchema,
  phoneSchema,
  text,
} from './auth.ts';
import { addressIdSchema, addressSchema } from './common.ts';

/**
 * The account area: profile, password and shipping address (spec §3 and §5). The server takes the
 * user from the session; e-mail fields in the forms are shown, never trusted.
 */

// ---- Profile ----------------------------------------------------------------------------------

/** GET /api/account/profile */
export const profileSchema = z.object({
  email: z.string(),
  nombre: z.string(),
  apellidoPat: z.string(),
  apellidoMat: z.string(),
  lada: z.string(),
  telefono: z.string(),
});
export type Profile = z.infer<typeof profileSchema>;

const requiredName = text()
  .trim()
  .min(1, MSG.required)
  .max(34, MSG.nameMax)
  .regex(NAME_PATTERN, MSG.invalid)
  .transform((v) => v.normalize('NFC').replace(/\s+/g, ' '));

/** PUT /api/account/profile: the new data plus the current password. */
export const profileUpdateSchema = z.object({
  nombre: requiredName,
  apellidoPat: requiredName,
  // Optional as at registration (spec note): a buyer with one surname must be able to save the profile.
  apellidoMat: apellidoMatSchema.optional().default(''),
  telefono: phoneSchema,
  password: currentPasswordSchema,
});
export type ProfileUpdateInput = z.input<typeof profileUpdateSchema>;

export const profileFormSchema = profileUpdateSchema
  .extend({ confirmPassword: text().min(1, MSG.required) })
  .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], message: MSG.mismatch });
export type ProfileFormInput = z.input<typeof profileFormSchema>;

// Registration's stricter name rules are re-exported for forms that want them.
export { apellidoMatSchema, apellidoPatSchema, nombreSchema };

// ---- Password -----------------------------------------------------------------------------------

/** PUT /api/account/password */
export const passwordChangeSchema = z.object({
  password: currentPasswordSchema,
  newPass: newPasswordSchema,
});
export type PasswordChangeInput = z.input<typeof passwordChangeSchema>;

export const passwordFormSchema = z
  .object({
    username: emailSchema,
    password: currentPasswordSchema,
    confirmPassword: text().min(1, MSG.required),
    newPass: newPasswordSchema,
    confirmNewPass: text().min(1, MSG.required),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], message: MSG.mismatch })
  .refine((v) => v.newPass === v.confirmNewPass, { path: ['confirmNewPass'], message: MSG.mismatch });
export type PasswordFormInput = z.input<typeof passwordFormSchema>;

// ---- Shipping address ---------------------------------------------------------------------------

export const ADDRESS_MSG = {
  name: 'Escriba su nombre completo',
  postalCode: 'Escriba un código postal válido',
  street: 'Escriba una dirección de envío válida',
  number: 'Escriba un número válido',
  min4: 'Escriba por lo menos 4 letras',
  max50: 'No escriba más de 50 letras',
  state: 'Seleccione un estado de la lista',
  country: 'El país de envío es México',
  alias: 'Escriba un nombre corto para esta dirección (p. ej. Laboratorio, Almacén)',
} as const;

/** How many addresses one account keeps ('Mis direcciones'). */
export const MAX_SHIPPING_ADDRESSES = 10;

const field = () => text().trim().min(1, MSG.required);

/** PUT /api/account/shipping-address (and /envio): the spec's fields; the country is fixed. */
export const shippingAddressSchema = z.object({
  nombreEnvio: field().min(10, ADDRESS_MSG.name).max(100, 'No escriba más de 100 letras'),
  telefonoEnvio: phoneSchema,
  cpEnvio: field()
    .regex(/^\d*$/, MSG.digitsOnly)
    .min(5, ADDRESS_MSG.postalCode)
    .max(8, ADDRESS_MSG.postalCode),
  calleEnvio: field().min(10, ADDRESS_MSG.street).max(50, ADDRESS_MSG.street),
  numExtEnvio: field().regex(/^\d*$/, MSG.digitsOnly).max(10, ADDRESS_MSG.number),
  numIntEnvio: text().trim().max(10, ADDRESS_MSG.number).optional().default(''),
  coloniaEnvio: field().min(4, ADDRESS_MSG.min4).max(50, ADDRESS_MSG.max50),
  municipioEnvio: field().min(4, ADDRESS_MSG.min4).max(50, ADDRESS_MSG.max50),
  ciudadEnvio: field().max(50, ADDRESS_MSG.max50),
  estadoEnvio: field().pipe(z.enum(STATE_VALUES, { error: ADDRESS_MSG.state })),
  paisEnvio: z.literal(COUNTRY, { error: ADDRESS_MSG.country }).optional().default(COUNTRY),
  /** 'Mis direcciones' (issue 20): the buyer's short name for it; kept as it was when left out. */
  alias: text()
    .trim()
    .min(1, ADDRESS_MSG.alias)
    .max(40, 'No escriba más de 40 letras')
    .refine((v) => !/\p{C}/u.test(v), 'El nombre de la dirección contiene caracteres no válidos')
    .optional(),
  /** Make this one the default (the first address always is). */
  isDefault: z.boolean({ error: MSG.invalid }).optional(),
});
export type ShippingAddressInput = z.input<typeof shippingAddressSchema>;
export type ShippingAddress = z.output<typeof shippingAddressSchema>;

/** One of the buyer's saved addresses as shown: the address, its id, short name and whether it is the default. */
export const savedAddressSchema = addressSchema.extend({
  id: z.number(),
  alias: z.string(),
  isDefault: z.boolean(),
});
export type SavedAddress = z.infer<typeof savedAddressSchema>;

/** GET /api/account/addresses */
export const savedAddressListSchema = z.object({ addresses: z.array(savedAddressSchema) });

export const addressIdParamsSchema = z.object({
  id: z.coerce.number({ error: 'Dirección no encontrada' }).pipe(addressIdSchema),
});

/** GET /api/account/shipping-address: the default address. */
export const shippingAddressResponseSchema = z.object({
  address: savedAddressSchema.nullable(),
});
export const shippingAddressSavedSchema = shippingAddressResponseSchema.extend({ message: z.string() });
