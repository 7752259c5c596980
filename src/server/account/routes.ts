import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  addressIdParamsSchema,
  passwordChangeSchema,
  profileSchema,
  profileUpdateSchema,
  savedAddressListSchema,
  savedAddressSchema,
  shippingAddressResponseSchema,
  shippingAddressSavedSchema,
  shippingAddressSchema,
} from '../../shared/schemas/account.ts';
import { messageSchema } from '../../shared/schemas/common.ts';
import {
  fiscalProfileIdParamsSchema,
  fiscalProfileListSchema,
  fiscalProfileSchema,
  fiscalProfileViewSchema,
} from '../../shared/schemas/invoice.ts';
import { requireUser, setSessionCookie } from '../auth/session.ts';
import {
  deleteShippingAddress,
  getShippingAddress,
  listShippingAddresses,
  saveDefaultShippingAddress,
  saveShippingAddressById,
  setDefaultShippingAddress,
} from './addresses.ts';
import { deleteFiscalProfile, listFiscalProfiles, saveFiscalProfile } from './fiscal-profiles.ts';
import { changePassword, getProfile, updateProfile } from './service.ts';

/** The account area. Every call acts on the session's user; nothing in the body names a user. */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['cuenta'];

  app.addHook('onSend', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
  });

  app.get(
    '/api/account/profile',
    { schema: { tags, summary: 'Perfil del usuario', response: { 200: profileSchema } } },
    async (request) => getProfile(app.db, (await requireUser(request)).id),
  );

  app.put(
    '/api/account/profile',
    {
      schema: {
        tags,
        summary: 'Actualiza el perfil (pide la contraseña actual)',
        body: profileUpdateSchema,
        response: { 200: profileSchema.extend({ message: messageSchema.shape.message }) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const profile = await updateProfile(app.db, user, request.body, request.ip);
      return { ...profile, message: 'Información correctamente actualizada' };
    },
  );

  app.put(
    '/api/account/password',
    {
      schema: {
        tags,
        summary: 'Cambia la contraseña; cierra las demás sesiones',
        body: passwordChangeSchema,
        response: { 200: messageSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const session = await changePassword(
        app.db,
        user,
        request.body,
        { ip: request.ip, userAgent: request.headers['user-agent'] },
        app.config.publicUrl,
      );
      setSessionCookie(reply, app.config, session);
      return { message: 'Contraseña correctamente actualizada' };
    },
  );

  app.get(
    '/api/account/shipping-address',
    {
      schema: {
        tags,
        summary: 'Dirección de envío por omisión',
        response: { 200: shippingAddressResponseSchema },
      },
    },
    async (request) => ({ address: await getShippingAddress(app.db, (await requireUser(request)).id) }),
  );

  app.put(
    '/api/account/shipping-address',
    {
      schema: {
        tags,
        summary: 'Guarda la dirección por omisión, o la primera (país fijo: México)',
        body: shippingAddressSchema,
        response: { 200: shippingAddressSavedSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const address = await saveDefaultShippingAddress(app.db, user.id, request.body);
      return { address, message: 'Información de domicilio correctamente actualizada' };
    },
  );

  // 'Mis direcciones' (issue 20): several addresses, one the default; another user's id reads as not found.
  app.get(
    '/api/account/addresses',
    {
      schema: { tags, summary: 'Direcciones de envío guardadas', response: { 200: savedAddressListSchema } },
    },
    async (request) => ({ addresses: await listShippingAddresses(app.db, (await requireUser(request)).id) }),
  );

  app.post(
    '/api/account/addresses',
    {
      schema: {
        tags,
        summary: 'Agrega una dirección de envío (hasta 10; la primera es la de omisión)',
        body: shippingAddressSchema,
        response: { 201: savedAddressSchema },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await saveShippingAddressById(app.db, (await requireUser(request)).id, request.body)),
  );

  app.put(
    '/api/account/addresses/:id',
    {
      schema: {
        tags,
        summary: 'Modifica una dirección de envío propia',
        params: addressIdParamsSchema,
        body: shippingAddressSchema,
        response: { 200: savedAddressSchema },
      },
    },
    async (request) =>
      saveShippingAddressById(app.db, (await requireUser(request)).id, request.body, request.params.id),
  );

  app.post(
    '/api/account/addresses/:id/default',
    {
      schema: {
        tags,
        summary: 'Hace de una dirección propia la de omisión',
        params: addressIdParamsSchema,
        response: { 200: savedAddressSchema },
      },
    },
    async (request) => setDefaultShippingAddress(app.db, (await requireUser(request)).id, request.params.id),
  );

  app.delete(
    '/api/account/addresses/:id',
    {
      schema: {
        tags,
        summary: 'Elimina una dirección propia (no la de omisión)',
        params: addressIdParamsSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      await deleteShippingAddress(app.db, (await requireUser(request)).id, request.params.id);
      return { message: 'Dirección eliminada' };
    },
  );

  // Saved fiscal profiles (issue 20), checked with the invoice form's SAT rules.
  app.get(
    '/api/account/fiscal-profiles',
    { schema: { tags, summary: 'Perfiles fiscales guardados', response: { 200: fiscalProfileListSchema } } },
    async (request) => ({ profiles: await listFiscalProfiles(app.db, (await requireUser(request)).id) }),
  );

  app.post(
    '/api/account/fiscal-profiles',
    {
      schema: {
        tags,
        summary: 'Guarda un perfil fiscal (mismas reglas del SAT que la solicitud de factura)',
        body: fiscalProfileSchema,
        response: { 201: fiscalProfileViewSchema },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await saveFiscalProfile(app.db, (await requireUser(request)).id, request.body)),
  );

  app.put(
    '/api/account/fiscal-profiles/:id',
    {
      schema: {
        tags,
        summary: 'Modifica un perfil fiscal propio',
        params: fiscalProfileIdParamsSchema,
        body: fiscalProfileSchema,
        response: { 200: fiscalProfileViewSchema },
      },
    },
    async (request) =>
      saveFiscalProfile(app.db, (await requireUser(request)).id, request.body, request.params.id),
  );

  app.delete(
    '/api/account/fiscal-profiles/:id',
    {
      schema: {
        tags,
        summary: 'Elimina un perfil fiscal propio',
        params: fiscalProfileIdParamsSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      await deleteFiscalProfile(app.db, (await requireUser(request)).id, request.params.id);
      return { message: 'Datos fiscales eliminados' };
    },
  );
};
