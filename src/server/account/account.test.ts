import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PASSWORD, sessionCookie, signIn, signUp, whoAmI } from '../../../tests/server/support/accounts.ts';
import { createTestApp, type TestApp } from '../../../tests/server/support/test-app.ts';
import { getShippingAddress } from './addresses.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.db.execute(sql`delete from auth_attempts`);
});

const address = {
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

const call = (method: 'GET' | 'PUT', url: string, cookie: string | undefined, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: cookie ? { cookie } : {},
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

describe('signed-in only', () => {
  it.each([
    ['GET', '/api/account/profile'],
    ['PUT', '/api/account/profile'],
    ['PUT', '/api/account/password'],
    ['GET', '/api/account/shipping-address'],
    ['PUT', '/api/account/shipping-address'],
  ] as const)('%s %s answers 401 to a visitor', async (method, url) => {
    const valid =
      url === '/api/account/shipping-address'
        ? address
        : url === '/api/account/password'
          ? { password: PASSWORD, newPass: 'Pipeta.Azul7' }
          : {
              nombre: 'Ana',
              apellidoPat: 'López',
              apellidoMat: 'Núñez',
              telefono: '3312345678',
              password: PASSWORD,
            };
    const res = await call(method, url, undefined, method === 'PUT' ? valid : undefined);
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toBe('Inicie sesión para continuar');
  });
});

describe('profile', () => {
  it('reads the profile with the e-mail and lada 52', async () => {
    const { cookie, email } = await signUp(t.app);
    const res = await call('GET', '/api/account/profile', cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      email,
      nombre: 'Ana María',
      apellidoPat: 'López',
      apellidoMat: 'Núñez',
      lada: '52',
      telefono: '3312345678',
    });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('updates with the current password; the e-mail cannot be changed through it', async () => {
    const { cookie, email } = await signUp(t.app);
    const res = await call('PUT', '/api/account/profile', cookie, {
      nombre: '  Ana   Sofía ',
      apellidoPat: 'Ramírez',
      apellidoMat: 'Ochoa',
      telefono: '3398765432',
      password: PASSWORD,
      username: 'otra@example.com',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      email,
      nombre: 'Ana Sofía',
      apellidoPat: 'Ramírez',
      apellidoMat: 'Ochoa',
      lada: '52',
      telefono: '3398765432',
      message: 'Información correctamente actualizada',
    });
    expect((await whoAmI(t.app, cookie))?.email).toBe(email);
  });

  it('a buyer with one surname saves the profile without an apellido materno, as at registration', async () => {
    const { cookie } = await signUp(t.app, { apellidoMat: '' });
    const res = await call('PUT', '/api/account/profile', cookie, {
      nombre: 'Itzel',
      apellidoPat: 'Tzab',
      apellidoMat: '',
      telefono: '9991234567',
      password: PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ apellidoPat: 'Tzab', apellidoMat: '' });
    const omitted = await call('PUT', '/api/account/profile', cookie, {
      nombre: 'Itzel',
      apellidoPat: 'Tzab',
      telefono: '9991234567',
      password: PASSWORD,
    });
    expect(omitted.statusCode, omitted.body).toBe(200);
    expect((await call('GET', '/api/account/profile', cookie)).json().apellidoMat).toBe('');
  });

  it('refuses a wrong current password and changes nothing; wrong guesses count toward the limit', async () => {
    const { cookie } = await signUp(t.app);
    const body = {
      nombre: 'Otro',
      apellidoPat: 'Nombre',
      apellidoMat: 'Más',
      telefono: '3300000000',
      password: 'Mala#Clave1',
    };
    const res = await call('PUT', '/api/account/profile', cookie, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      message: 'La contraseña actual es incorrecta',
      fields: { password: 'La contraseña actual es incorrecta' },
    });
    expect((await call('GET', '/api/account/profile', cookie)).json().nombre).toBe('Ana María');
    for (let i = 0; i < 4; i++) await call('PUT', '/api/account/profile', cookie, body);
    expect(
      (await call('PUT', '/api/account/profile', cookie, { ...body, password: PASSWORD })).statusCode,
    ).toBe(429);
  });

  it('validates every field with the spec messages', async () => {
    const { cookie } = await signUp(t.app);
    const res = await call('PUT', '/api/account/profile', cookie, {
      nombre: '',
      apellidoPat: 'x'.repeat(35),
      apellidoMat: 'N3',
      telefono: '33123456789',
      password: '',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({
      nombre: 'No deje vacío este campo',
      apellidoPat: 'No se permiten más de 34 letras',
      apellidoMat: 'No válido',
      telefono: 'Sobre pasó el número máximo de dígitos',
      password: 'No deje vacío este campo',
    });
  });
});

describe('password change', () => {
  it('needs the current password, ends the other sessions and renews this one', async () => {
    const { cookie, email } = await signUp(t.app);
    const elsewhere = sessionCookie(await signIn(t.app, email, PASSWORD));
    const wrong = await call('PUT', '/api/account/password', cookie, {
      password: 'Mala#Clave1',
      newPass: 'Pipeta.Azul7',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toBe('La contraseña actual es incorrecta');

    const res = await call('PUT', '/api/account/password', cookie, {
      password: PASSWORD,
      newPass: 'Pipeta.Azul7',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Contraseña correctamente actualizada' });
    const renewed = sessionCookie(res);
    expect(renewed).toBeDefined();
    expect(renewed).not.toBe(cookie);
    expect((await whoAmI(t.app, renewed))?.email).toBe(email);
    expect(await whoAmI(t.app, cookie)).toBeNull();
    expect(await whoAmI(t.app, elsewhere)).toBeNull();
    expect((await signIn(t.app, email, PASSWORD)).statusCode).toBe(401);
    expect((await signIn(t.app, email, 'Pipeta.Azul7')).statusCode).toBe(200);
    const { rows } = (await t.database.db.execute(
      sql`select kind from mail_outbox where "to" = ${email} order by id`,
    )) as unknown as { rows: { kind: string }[] };
    expect(rows.map((r) => r.kind)).toContain('password-changed');
  });

  it('applies the strength rule and the common-password list to the new one', async () => {
    const { cookie } = await signUp(t.app);
    for (const [newPass, message] of [
      ['corta1!', 'Escriba por lo menos 8 caracteres'],
      ['sinmayuscula1!', 'Formato incorrecto de contraseña'],
      ['Password1!', 'La contraseña es demasiado común'],
    ]) {
      const res = await call('PUT', '/api/account/password', cookie, { password: PASSWORD, newPass });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields).toEqual({ newPass: message });
    }
  });
});

describe('shipping address', () => {
  it('is null until saved, then saved and read back with the country fixed to México', async () => {
    const { cookie, user } = await signUp(t.app);
    expect((await call('GET', '/api/account/shipping-address', cookie)).json()).toEqual({ address: null });
    const res = await call('PUT', '/api/account/shipping-address', cookie, {
      ...address,
      estadoEnvio: 'CDMX',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      address: {
        ...address,
        estadoEnvio: 'CDMX',
        paisEnvio: 'México',
        id: expect.any(Number),
        alias: 'Principal',
        isDefault: true,
      },
      message: 'Información de domicilio correctamente actualizada',
    });
    expect((await call('GET', '/api/account/shipping-address', cookie)).json().address.estadoEnvio).toBe(
      'CDMX',
    );
    // Saving again (/envio, /cuenta) replaces the default address; it is still the only one.
    await call('PUT', '/api/account/shipping-address', cookie, {
      ...address,
      estadoEnvio: 'Baja California',
      numIntEnvio: undefined,
    });
    expect(await getShippingAddress(t.database.db, user.id)).toEqual({
      ...address,
      numIntEnvio: '',
      estadoEnvio: 'Baja California',
      paisEnvio: 'México',
      id: res.json().address.id,
      alias: 'Principal',
      isDefault: true,
    });
    expect((await call('GET', '/api/account/addresses', cookie)).json().addresses).toHaveLength(1);
  });

  it('refuses bad fields, another country, a state not on the list; nothing stored', async () => {
    const { cookie, user } = await signUp(t.app);
    const res = await call('PUT', '/api/account/shipping-address', cookie, {
      ...address,
      nombreEnvio: 'Ana',
      cpEnvio: '4453',
      calleEnvio: 'x'.repeat(51),
      numExtEnvio: '',
      estadoEnvio: 'Ciudad de México',
      paisEnvio: 'USA',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({
      nombreEnvio: 'Escriba su nombre completo',
      cpEnvio: 'Escriba un código postal válido',
      calleEnvio: 'Escriba una dirección de envío válida',
      numExtEnvio: 'No deje vacío este campo',
      estadoEnvio: 'Seleccione un estado de la lista',
      paisEnvio: 'El país de envío es México',
    });
    const wrongTypes = await call('PUT', '/api/account/shipping-address', cookie, {
      ...address,
      cpEnvio: 44530,
      telefonoEnvio: null,
    });
    expect(wrongTypes.statusCode).toBe(400);
    expect(wrongTypes.json().error.fields).toEqual({
      cpEnvio: 'No válido',
      telefonoEnvio: 'No deje vacío este campo',
    });
    expect(await getShippingAddress(t.database.db, user.id)).toBeNull();
  });
});

describe('one user cannot reach another', () => {
  it("user A neither reads nor changes user B's data, whatever the body says", async () => {
    const a = await signUp(t.app);
    const b = await signUp(t.app, { nombre: 'Beatriz' });
    await call('PUT', '/api/account/shipping-address', b.cookie, {
      ...address,
      nombreEnvio: 'Beatriz Gómez Ruiz',
    });

    const profile = await call(
      'GET',
      `/api/account/profile?userId=${b.user.id}&username=${b.email}`,
      a.cookie,
    );
    expect(profile.json().email).toBe(a.email);
    const addr = await call('GET', `/api/account/shipping-address?userId=${b.user.id}`, a.cookie);
    expect(addr.json()).toEqual({ address: null });

    await call('PUT', '/api/account/shipping-address', a.cookie, {
      ...address,
      userId: b.user.id,
      username: b.email,
    });
    await call('PUT', '/api/account/profile', a.cookie, {
      nombre: 'Hackeado',
      apellidoPat: 'Xx',
      apellidoMat: 'Yy',
      telefono: '3300000000',
      password: PASSWORD,
      userId: b.user.id,
      username: b.email,
    });
    expect((await getShippingAddress(t.database.db, b.user.id))?.nombreEnvio).toBe('Beatriz Gómez Ruiz');
    expect((await call('GET', '/api/account/profile', b.cookie)).json().nombre).toBe('Beatriz');
    expect((await call('GET', '/api/account/profile', a.cookie)).json().nombre).toBe('Hackeado');
  });
});
