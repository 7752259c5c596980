import { z } from 'zod';
import { isCommonPassword } from './common-passwords.ts';

/**
 * Accounts: sign-in, registration, recovery and the session. One schema per payload, used by the
 * react-hook-form resolver in the browser and by the route on the server, with the spec's exact
 * Spanish messages (spec §5). The first message of each field is the one shown.
 */

export const MSG = {
  required: 'No deje vacío este campo',
  email: 'Dirección de correo inválida',
  emailMax: 'No escriba más de 50 letras',
  invalid: 'No válido',
  nameMax: 'No se permiten más de 34 letras',
  digitsOnly: 'Escriba únicamente dígitos',
  phone: 'Escriba un teléfono válido',
  phoneMax: 'Sobre pasó el número máximo de dígitos',
  passwordMin: 'Escriba por lo menos 8 caracteres',
  passwordFormat: 'Formato incorrecto de contraseña',
  passwordMax: 'No escriba más de 128 caracteres',
  passwordCommon: 'La contraseña es demasiado común',
  mismatch: 'Las contraseñas no coinciden',
  tooMany: 'Demasiados intentos. Intente de nuevo más tarde.',
} as const;

/** A string field: a missing value or a wrong type reads as an empty field. */
export const text = () =>
  z.string({ error: (iss) => (iss.input === undefined || iss.input === null ? MSG.required : MSG.invalid) });

/**
 * ASCII only on purpose: Unicode look-alikes ('а' Cyrillic for 'a') would let two accounts look the
 * same in a mail client. No consecutive dots, a dotted domain with a letter TLD.
 */
export const EMAIL_PATTERN =
  /^[A-Za-z0-9_%+'-]+(?:\.[A-Za-z0-9_%+'-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/** Sign-in and recovery request: any valid address (spec §5 Login). */
export const emailSchema = text()
  .trim()
  .max(254, MSG.email)
  .regex(EMAIL_PATTERN, MSG.email)
  .transform((v) => v.toLowerCase());

/** Registration: valid, 2 to 50 characters. */
export const newEmailSchema = text()
  .trim()
  .min(2, MSG.required)
  .max(50, MSG.emailMax)
  .regex(EMAIL_PATTERN, MSG.email)
  .transform((v) => v.toLowerCase());

/** Letters (any accent), underscore and spaces. */
export const NAME_PATTERN = /^[\p{L}\p{M}_ ]+$/u;
const name = (min: number) =>
  text()
    .trim()
    .min(min, MSG.required)
    .max(34, MSG.nameMax)
    .regex(NAME_PATTERN, MSG.invalid)
    .transform((v) => v.normalize('NFC').replace(/\s+/g, ' '));

export const nombreSchema = name(3);
export const apellidoPatSchema = name(2);
export const apellidoMatSchema = text()
  .trim()
  .max(34, MSG.nameMax)
  .regex(/^[\p{L}\p{M}_ ]*$/u, MSG.invalid)
  .transform((v) => v.normalize('NFC').replace(/\s+/g, ' '));

/** Exactly 10 digits (the lada is always 52). */
export const phoneSchema = text()
  .trim()
  .min(1, MSG.required)
  .regex(/^\d*$/, MSG.digitsOnly)
  .min(10, MSG.phone)
  .max(10, MSG.phoneMax);

/** The four parts of the strength rule, shared by the live checklist and the schema. */
export const passwordChecks = {
  length: (v: string) => v.length >= 8,
  digit: (v: string) => /\d/.test(v),
  upper: (v: string) => /[A-ZÑÁÉÍÓÚÜ]/.test(v),
  lower: (v: string) => /[a-zñáéíóúü]/.test(v),
  special: (v: string) => /[@$!%*?&#.:ñÑ]/.test(v),
};

/** The live checklist under the password fields (spec §5), green when met. */
export const passwordChecklist = [
  { label: 'Al menos 8 caracteres', test: passwordChecks.length },
  { label: 'Al menos un número', test: passwordChecks.digit },
  { label: 'Al menos una letra mayúscula', test: passwordChecks.upper },
  { label: 'Incluya al menos un caracter especial, e.j., ! @ # ?', test: passwordChecks.special },
] as const;

const strong = (v: string) =>
  passwordChecks.lower(v) && passwordChecks.upper(v) && passwordChecks.digit(v) && passwordChecks.special(v);

/** A new password: 8+ characters with lower, upper, digit and special; not a common one. */
export const newPasswordSchema = text()
  .min(1, MSG.required)
  .min(8, MSG.passwordMin)
  .max(128, MSG.passwordMax)
  .refine(strong, MSG.passwordFormat)
  .refine((v) => !isCommonPassword(v), MSG.passwordCommon);

/** A password being checked (sign-in, current password): present and bounded. */
export const currentPasswordSchema = text().min(1, MSG.required).max(128, MSG.passwordMax);

export const LADA = '52';

// ---- Payloads ---------------------------------------------------------------------------------

/** POST /api/auth/login */
export const loginSchema = z.object({
  username: emailSchema,
  password: currentPasswordSchema,
});
export type LoginInput = z.input<typeof loginSchema>;

/** POST /api/auth/register (lada is always '52'). */
export const registerSchema = z.object({
  username: newEmailSchema,
  nombre: nombreSchema,
  apellidoPat: apellidoPatSchema,
  apellidoMat: apellidoMatSchema.optional().default(''),
  telefono: phoneSchema,
  password: newPasswordSchema,
  lada: z.literal(LADA, { error: MSG.invalid }).optional(),
});
export type RegisterInput = z.input<typeof registerSchema>;

/** The registration form: the payload plus the confirmation. */
export const registerFormSchema = registerSchema
  .extend({ confirmPassword: text().min(1, MSG.required) })
  .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], message: MSG.mismatch });
export type RegisterFormInput = z.input<typeof registerFormSchema>;

/** Registration codes: 6 digits, e-mailed; the account exists only once the code is typed (issue 23). */
export const VERIFICATION_CODE_LENGTH = 6;

/** POST /api/auth/register/verify */
export const registerVerifySchema = z.object({
  username: emailSchema,
  code: z
    .string({ error: MSG.required })
    .trim()
    .min(1, MSG.required)
    .regex(/^\d{6}$/, 'Escriba los 6 dígitos del código'),
});
export type RegisterVerifyInput = z.input<typeof registerVerifySchema>;

/** POST /api/auth/recovery */
export const recoveryRequestSchema = z.object({ username: emailSchema });
export type RecoveryRequestInput = z.input<typeof recoveryRequestSchema>;

/** Recovery codes: 8 characters from an alphabet without look-alikes (no 0/O, 1/I/L, 5/S, 2/Z, 8/B, 6/G). */
export const RECOVERY_ALPHABET = 'ACDEFHJKMNPQRTUVWXY34679';
export const RECOVERY_CODE_LENGTH = 8;

/** What the shopper typed, normalised: upper case, no spaces or hyphens. */
export const recoveryCodeSchema = text()
  .max(64, MSG.invalid)
  .transform((v) => v.toUpperCase().replace(/[\s-]/g, ''))
  .pipe(z.string().min(1, MSG.required));

/**
 * POST /api/auth/recovery/reset. The e-mail travels with the code (remembered from /recuperar) so
 * that a code's 5 attempts can be counted; the spec's screen asks only for code and new password.
 */
export const recoveryResetSchema = z.object({
  username: emailSchema,
  recCode: recoveryCodeSchema,
  newPass: newPasswordSchema,
});
export type RecoveryResetInput = z.input<typeof recoveryResetSchema>;

// ---- Answers ----------------------------------------------------------------------------------

export const sessionUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  role: z.enum(['customer', 'staff']),
  nombre: z.string(),
  apellidoPat: z.string(),
  apellidoMat: z.string(),
  telefono: z.string(),
});
export type SessionUserDto = z.infer<typeof sessionUserSchema>;

/** GET /api/auth/session, and the answer of login / register. */
export const sessionResponseSchema = z.object({ user: sessionUserSchema.nullable() });
export const signInResponseSchema = z.object({ user: sessionUserSchema.nullable(), message: z.string() });
