import { describe, expect, it } from 'vitest';
import { passwordFormSchema, profileFormSchema, shippingAddressSchema } from './account.ts';
import {
  loginSchema,
  passwordChecklist,
  recoveryResetSchema,
  registerFormSchema,
  registerSchema,
} from './auth.ts';
import { isCommonPassword } from './common-passwords.ts';

/** The first message of each field, as the form and the API show it. */
function messages(
  schema: {
    safeParse(v: unknown): {
      success: boolean;
      error?: { issues: { path: PropertyKey[]; message: string }[] };
    };
  },
  value: unknown,
) {
  const result = schema.safeParse(value);
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) {
    const key = issue.path.map(String).join('.');
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}

const validRegistration = {
  username: 'ana.lopez@example.com',
  nombre: 'Ana María',
  apellidoPat: 'López',
  apellidoMat: 'Núñez',
  telefono: '3312345678',
  password: 'Matraz#2024x',
};

describe('registration (spec §5)', () => {
  it('accepts a valid registration and lower-cases the e-mail', () => {
    const r = registerSchema.parse({ ...validRegistration, username: ' Ana.Lopez@Example.COM ' });
    expect(r.username).toBe('ana.lopez@example.com');
    expect(r.apellidoMat).toBe('Núñez');
    expect(registerSchema.parse({ ...validRegistration, apellidoMat: undefined }).apellidoMat).toBe('');
  });

  it.each([
    ['', 'No deje vacío este campo'],
    ['a', 'No deje vacío este campo'],
    ['ana@', 'Dirección de correo inválida'],
    ['ana@example', 'Dirección de correo inválida'],
    ['ana..lopez@example.com', 'Dirección de correo inválida'],
    [`${'a'.repeat(39)}@example.com`, 'No escriba más de 50 letras'],
    // Cyrillic 'а' looks like a Latin 'a'.
    ['\u0430na@example.com', 'Dirección de correo inválida'],
    ['ana@exаmple.com', 'Dirección de correo inválida'],
  ])('username %j → %s', (username, message) => {
    expect(messages(registerSchema, { ...validRegistration, username }).username).toBe(message);
  });

  it('accepts an e-mail of exactly 50 characters', () => {
    const username = `${'a'.repeat(38)}@example.com`;
    expect(username).toHaveLength(50);
    expect(messages(registerSchema, { ...validRegistration, username }).username).toBeUndefined();
  });

  it.each([
    ['nombre', '', 'No deje vacío este campo'],
    ['nombre', 'Al', 'No deje vacío este campo'],
    ['nombre', 'Ana3', 'No válido'],
    ['nombre', 'Ana-María', 'No válido'],
    ['nombre', 'A'.repeat(35), 'No se permiten más de 34 letras'],
    ['apellidoPat', 'L', 'No deje vacío este campo'],
    ['apellidoPat', 'López!', 'No válido'],
    ['apellidoPat', 'L'.repeat(35), 'No se permiten más de 34 letras'],
    ['apellidoMat', 'N'.repeat(35), 'No se permiten más de 34 letras'],
    ['apellidoMat', 'N0', 'No válido'],
    ['telefono', '', 'No deje vacío este campo'],
    ['telefono', '33-1234-5678', 'Escriba únicamente dígitos'],
    ['telefono', '331234567', 'Escriba un teléfono válido'],
    ['telefono', '33123456789', 'Sobre pasó el número máximo de dígitos'],
    ['password', '', 'No deje vacío este campo'],
    ['password', 'Ab1!', 'Escriba por lo menos 8 caracteres'],
    ['password', 'abcdefgh1!', 'Formato incorrecto de contraseña'],
    ['password', 'ABCDEFGH1!', 'Formato incorrecto de contraseña'],
    ['password', 'Abcdefgh!', 'Formato incorrecto de contraseña'],
    ['password', 'Abcdefgh1', 'Formato incorrecto de contraseña'],
    ['password', `Ab1!${'x'.repeat(125)}`, 'No escriba más de 128 caracteres'],
    ['password', 'Password1!', 'La contraseña es demasiado común'],
    ['password', 'Contraseña1', 'La contraseña es demasiado común'],
    ['password', 'P@ssw0rd2024', 'La contraseña es demasiado común'],
  ])('%s %j → %s', (field, value, message) => {
    expect(messages(registerSchema, { ...validRegistration, [field]: value })[field]).toBe(message);
  });

  it('accepts the edges: names of 3/2 and 34 letters with accents and underscores, ñ as the special', () => {
    expect(
      registerSchema.safeParse({
        ...validRegistration,
        nombre: 'Íña',
        apellidoPat: 'Oz',
        apellidoMat: 'Ñ'.repeat(34),
        password: 'Cañada2024Z',
      }).success,
    ).toBe(true);
    expect(registerSchema.safeParse({ ...validRegistration, nombre: 'Ana_Sofía de la O' }).success).toBe(
      true,
    );
  });

  it('wants the confirmation equal: "Las contraseñas no coinciden"', () => {
    expect(
      messages(registerFormSchema, { ...validRegistration, confirmPassword: 'Matraz#2024y' }).confirmPassword,
    ).toBe('Las contraseñas no coinciden');
    expect(
      registerFormSchema.safeParse({ ...validRegistration, confirmPassword: 'Matraz#2024x' }).success,
    ).toBe(true);
  });

  it('reads a missing field or a wrong type as an empty or invalid field, never in English', () => {
    const m = messages(registerSchema, { username: 42, nombre: null, telefono: ['3312345678'] });
    expect(m.username).toBe('No válido');
    expect(m.nombre).toBe('No deje vacío este campo');
    expect(m.apellidoPat).toBe('No deje vacío este campo');
    expect(m.telefono).toBe('No válido');
    expect(m.password).toBe('No deje vacío este campo');
  });
});

describe('the live checklist', () => {
  it('marks each requirement as the password grows', () => {
    const met = (v: string) => passwordChecklist.filter((i) => i.test(v)).map((i) => i.label);
    expect(met('abc')).toEqual([]);
    expect(met('abcdefgh')).toEqual(['Al menos 8 caracteres']);
    expect(met('abcdefg1')).toEqual(['Al menos 8 caracteres', 'Al menos un número']);
    expect(met('Abcdefg1#')).toEqual([
      'Al menos 8 caracteres',
      'Al menos un número',
      'Al menos una letra mayúscula',
      'Incluya al menos un caracter especial, e.j., ! @ # ?',
    ]);
  });
});

describe('login and recovery', () => {
  it('login: "Dirección de correo inválida" and "No deje vacío este campo"', () => {
    expect(messages(loginSchema, { username: 'x', password: '' })).toEqual({
      username: 'Dirección de correo inválida',
      password: 'No deje vacío este campo',
    });
  });

  it('recovery: the code is normalised; the new password follows the same rule', () => {
    const r = recoveryResetSchema.parse({
      username: 'a@b.mx',
      recCode: ' k7m4-p9xq ',
      newPass: 'Matraz#2024x',
    });
    expect(r.recCode).toBe('K7M4P9XQ');
    expect(messages(recoveryResetSchema, { username: 'a@b.mx', recCode: '', newPass: '' })).toEqual({
      recCode: 'No deje vacío este campo',
      newPass: 'No deje vacío este campo',
    });
    expect(
      messages(recoveryResetSchema, { username: 'a@b.mx', recCode: 'X', newPass: 'abcdefgh' }).newPass,
    ).toBe('Formato incorrecto de contraseña');
  });
});

describe('profile and password forms', () => {
  it('profile: names and phone required (the second surname optional, as at registration), passwords equal', () => {
    expect(
      messages(profileFormSchema, {
        nombre: '',
        apellidoPat: '',
        apellidoMat: '',
        telefono: '123',
        password: 'x',
        confirmPassword: 'y',
      }),
    ).toEqual({
      nombre: 'No deje vacío este campo',
      apellidoPat: 'No deje vacío este campo',
      telefono: 'Escriba un teléfono válido',
      confirmPassword: 'Las contraseñas no coinciden',
    });
  });

  it('password change: current twice, new one strong and confirmed', () => {
    expect(
      messages(passwordFormSchema, {
        username: 'ana@example.com',
        password: 'Actual#2024x',
        confirmPassword: 'Actual#2024y',
        newPass: 'debil',
        confirmNewPass: 'otra',
      }),
    ).toEqual({
      confirmPassword: 'Las contraseñas no coinciden',
      newPass: 'Escriba por lo menos 8 caracteres',
      confirmNewPass: 'Las contraseñas no coinciden',
    });
  });
});

const validAddress = {
  nombreEnvio: 'Ana María López Núñez',
  telefonoEnvio: '3312345678',
  cpEnvio: '44530',
  calleEnvio: 'Av. Mariano Otero',
  numExtEnvio: '1249',
  numIntEnvio: '4B',
  coloniaEnvio: 'Rinconada del Bosque',
  municipioEnvio: 'Guadalajara',
  ciudadEnvio: 'Guadalajara',
  estadoEnvio: 'Jalisco',
};

describe('shipping address (spec §5)', () => {
  it('fixes the country to México and keeps the spec values of the states', () => {
    expect(shippingAddressSchema.parse(validAddress).paisEnvio).toBe('México');
    expect(shippingAddressSchema.parse({ ...validAddress, estadoEnvio: 'CDMX' }).estadoEnvio).toBe('CDMX');
    expect(shippingAddressSchema.parse({ ...validAddress, estadoEnvio: 'Baja California' }).estadoEnvio).toBe(
      'Baja California',
    );
  });

  it.each([
    ['nombreEnvio', '', 'No deje vacío este campo'],
    ['nombreEnvio', 'Ana López', 'Escriba su nombre completo'],
    ['telefonoEnvio', '33 1234 5678', 'Escriba únicamente dígitos'],
    ['telefonoEnvio', '331234567', 'Escriba un teléfono válido'],
    ['cpEnvio', '', 'No deje vacío este campo'],
    ['cpEnvio', '4453', 'Escriba un código postal válido'],
    ['cpEnvio', '123456789', 'Escriba un código postal válido'],
    ['cpEnvio', '44S30', 'Escriba únicamente dígitos'],
    ['calleEnvio', 'Av. Otero', 'Escriba una dirección de envío válida'],
    ['calleEnvio', 'x'.repeat(51), 'Escriba una dirección de envío válida'],
    ['numExtEnvio', '', 'No deje vacío este campo'],
    ['numExtEnvio', '12345678901', 'Escriba un número válido'],
    ['coloniaEnvio', 'Col', 'Escriba por lo menos 4 letras'],
    ['municipioEnvio', 'x'.repeat(51), 'No escriba más de 50 letras'],
    ['ciudadEnvio', '', 'No deje vacío este campo'],
    ['estadoEnvio', '', 'No deje vacío este campo'],
    ['estadoEnvio', 'Ciudad de México', 'Seleccione un estado de la lista'],
    ['estadoEnvio', 'Texas', 'Seleccione un estado de la lista'],
    ['paisEnvio', 'Estados Unidos', 'El país de envío es México'],
  ])('%s %j → %s', (field, value, message) => {
    expect(messages(shippingAddressSchema, { ...validAddress, [field]: value })[field]).toBe(message);
  });

  it('accepts the limits: CP of 5 and 8 digits, street of 10 and 50, exterior number of 10', () => {
    for (const patch of [
      { cpEnvio: '01000' },
      { cpEnvio: '12345678' },
      { calleEnvio: 'x'.repeat(10) },
      { calleEnvio: 'x'.repeat(50) },
      { numExtEnvio: '1234567890' },
      { numIntEnvio: '' },
    ]) {
      expect(
        shippingAddressSchema.safeParse({ ...validAddress, ...patch }).success,
        JSON.stringify(patch),
      ).toBe(true);
    }
  });
});

describe('common passwords', () => {
  it('refuses the usual suspects and leaves ordinary strong passwords alone', () => {
    for (const p of ['Password123!', 'Qwerty123!', 'Bienvenido1!', 'Mexico2024#', 'Admin@123', 'Abcd1234!']) {
      expect(isCommonPassword(p), p).toBe(true);
    }
    for (const p of ['Matraz#2024x', 'Pipeta.Azul7', 'Gradilla!93K', 'Tubo:Ensayo5']) {
      expect(isCommonPassword(p), p).toBe(false);
    }
  });
});
