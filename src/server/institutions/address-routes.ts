import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageSchema } from '../../shared/schemas/common.ts';
import {
  institutionAddressParamsSchema,
  institutionAddressSchema,
  institutionAddressViewSchema,
  institutionParamsSchema,
} from '../../shared/schemas/institutions.ts';
import { actorOf } from '../audit/log.ts';
import { memberFor } from './access.ts';
import { deleteInstitutionAddress, listInstitutionAddresses, saveInstitutionAddress } from './addresses.ts';

/** The institution's shared addresses: every member reads them, 'addresses.manage' changes them. */
export const addressRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['instituciones'];

  app.get(
    '/api/institutions/:id/addresses',
    {
      schema: {
        tags,
        summary: 'Direcciones de la institución (campus, laboratorios, almacén)',
        params: institutionParamsSchema,
        response: { 200: z.object({ addresses: z.array(institutionAddressViewSchema) }) },
      },
    },
    async (request) => {
      await memberFor(request, request.params.id, null);
      return { addresses: await listInstitutionAddresses(app.db, request.params.id) };
    },
  );

  app.post(
    '/api/institutions/:id/addresses',
    {
      schema: {
        tags,
        summary: 'Agrega una dirección de la institución',
        params: institutionParamsSchema,
        body: institutionAddressSchema,
        response: { 201: institutionAddressViewSchema },
      },
    },
    async (request, reply) => {
      const { user } = await memberFor(request, request.params.id, 'addresses.manage');
      const saved = await saveInstitutionAddress(app.db, actorOf(user), request.params.id, request.body);
      reply.code(201);
      return saved;
    },
  );

  app.put(
    '/api/institutions/:id/addresses/:addressId',
    {
      schema: {
        tags,
        summary: 'Cambia una dirección de la institución',
        params: institutionAddressParamsSchema,
        body: institutionAddressSchema,
        response: { 200: institutionAddressViewSchema },
      },
    },
    async (request) => {
      const { user } = await memberFor(request, request.params.id, 'addresses.manage');
      return saveInstitutionAddress(
        app.db,
        actorOf(user),
        request.params.id,
        request.body,
        request.params.addressId,
      );
    },
  );

  app.delete(
    '/api/institutions/:id/addresses/:addressId',
    {
      schema: {
        tags,
        summary: 'Elimina una dirección de la institución',
        params: institutionAddressParamsSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      const { user } = await memberFor(request, request.params.id, 'addresses.manage');
      await deleteInstitutionAddress(app.db, actorOf(user), request.params.id, request.params.addressId);
      return { message: 'Dirección eliminada' };
    },
  );
};
