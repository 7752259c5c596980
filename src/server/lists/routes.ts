import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  listCreateSchema,
  listDetailSchema,
  listIdParamsSchema,
  listLineInputSchema,
  listLineParamsSchema,
  listQuantitySchema,
  listRenameSchema,
  listSummariesSchema,
  sharedListParamsSchema,
  sharedListSchema,
} from '../../shared/schemas/lists.ts';
import { requireUser } from '../auth/session.ts';
import {
  addToList,
  createList,
  deleteList,
  getList,
  listLists,
  removeFromList,
  renameList,
  setListQuantity,
  sharedList,
  shareList,
  unshareList,
} from './service.ts';

/**
 * 'Mis listas' (issue 18, decision 031). Every /api/lists call acts on the session's user; a list of another
 * account answers 404 as if it did not exist. /api/lists/shared/:token is the one read without a session.
 */
export const listRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['listas'];

  app.addHook('onSend', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
  });

  app.get(
    '/api/lists',
    { schema: { tags, summary: 'Listas guardadas del cliente', response: { 200: listSummariesSchema } } },
    async (request) => ({ lists: await listLists(app.db, (await requireUser(request)).id) }),
  );

  app.post(
    '/api/lists',
    {
      schema: {
        tags,
        summary: 'Crea una lista, vacía o con productos (p. ej. el carrito guardado como lista)',
        body: listCreateSchema,
        response: { 201: listDetailSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      reply.code(201);
      return createList(app.db, user.id, request.body);
    },
  );

  app.get(
    '/api/lists/:id',
    {
      schema: {
        tags,
        summary: 'Una lista con los precios y existencias de hoy',
        params: listIdParamsSchema,
        response: { 200: listDetailSchema },
      },
    },
    async (request) => getList(app.db, (await requireUser(request)).id, request.params.id),
  );

  app.patch(
    '/api/lists/:id',
    {
      schema: {
        tags,
        summary: 'Cambia el nombre de una lista',
        params: listIdParamsSchema,
        body: listRenameSchema,
        response: { 200: listDetailSchema },
      },
    },
    async (request) =>
      renameList(app.db, (await requireUser(request)).id, request.params.id, request.body.name),
  );

  app.delete(
    '/api/lists/:id',
    {
      schema: {
        tags,
        summary: 'Elimina una lista',
        params: listIdParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await deleteList(app.db, (await requireUser(request)).id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/lists/:id/lines',
    {
      schema: {
        tags,
        summary: 'Agrega un producto a la lista (suma la cantidad si ya está)',
        params: listIdParamsSchema,
        body: listLineInputSchema,
        response: { 200: listDetailSchema },
      },
    },
    async (request) => addToList(app.db, (await requireUser(request)).id, request.params.id, request.body),
  );

  app.put(
    '/api/lists/:id/lines/:code',
    {
      schema: {
        tags,
        summary: 'Cambia la cantidad de un producto de la lista',
        params: listLineParamsSchema,
        body: listQuantitySchema,
        response: { 200: listDetailSchema },
      },
    },
    async (request) =>
      setListQuantity(
        app.db,
        (await requireUser(request)).id,
        request.params.id,
        request.params.code,
        request.body.quantity,
      ),
  );

  app.delete(
    '/api/lists/:id/lines/:code',
    {
      schema: {
        tags,
        summary: 'Quita un producto de la lista',
        params: listLineParamsSchema,
        response: { 200: listDetailSchema },
      },
    },
    async (request) =>
      removeFromList(app.db, (await requireUser(request)).id, request.params.id, request.params.code),
  );

  app.post(
    '/api/lists/:id/share',
    {
      schema: {
        tags,
        summary: 'Compartir: crea el enlace de solo lectura de la lista',
        params: listIdParamsSchema,
        response: { 200: listDetailSchema },
      },
    },
    async (request) => shareList(app.db, (await requireUser(request)).id, request.params.id),
  );

  app.delete(
    '/api/lists/:id/share',
    {
      schema: {
        tags,
        summary: 'Dejar de compartir: el enlace deja de funcionar',
        params: listIdParamsSchema,
        response: { 200: listDetailSchema },
      },
    },
    async (request) => unshareList(app.db, (await requireUser(request)).id, request.params.id),
  );

  app.get(
    '/api/lists/shared/:token',
    {
      schema: {
        tags,
        summary: 'Lista compartida (solo lectura, sin sesión)',
        params: sharedListParamsSchema,
        response: { 200: sharedListSchema },
      },
    },
    async (request, reply) => {
      reply.header('X-Robots-Tag', 'noindex');
      reply.header('Referrer-Policy', 'no-referrer');
      return sharedList(app.db, request.params.token);
    },
  );
};
