import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  passwordChangeSchema,
  profileSchema,
  profileUpdateSchema,
  shippingAddressResponseSchema,
  shippingAddressSavedSchema,
  shippingAddressSchema,
} from '../../shared/schemas/account.ts';
import { messageSchema } from '../../shared/schemas/common.ts';
import { requireUser, setSessionCookie } from '../auth/session.ts';
import {
  changePassword,
  getProfile,
  getShippingAddress,
  saveShippingAddress,
  updateProfile,
} from './service.ts';

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
        summary: 'Domicilio de envío guardado',
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
        summary: 'Guarda el domicilio de envío (país fijo: México)',
        body: shippingAddressSchema,
        response: { 200: shippingAddressSavedSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const address = await saveShippingAddress(app.db, user.id, request.body);
      return { address, message: 'Información de domicilio correctamente actualizada' };
    },
  );
};
