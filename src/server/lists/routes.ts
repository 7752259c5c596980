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
import { buyerScope } from '../institutions/access.ts';
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
 * 'Mis listas' (issue 18, decision 031). Every /api/lists call acts on the session's user (or, while the session buys
 * for an institution, on the institution's shared lists, decision 058); a list of another account answers 404 as if
 * it did not exist. /api/lists/shared/:token is the one read without a session.
 */
export const listRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['listas'];
  // The person's own lists, or the institution's they are buying for (issue 34).
  const owner = (request: Parameters<typeof buyerScope>[0]) => buyerScope(request, 'lists.use');

  app.addHook('onSend', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
  });

  app.get(
    '/api/lists',
    { schema: { tags, summary: 'Listas guardadas del cliente', response: { 200: listSummariesSchema } } },
    async (request) => ({ lists: await listLists(app.db, await owner(request)) }),
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
      const who = await owner(request);
      reply.code(201);
      return createList(app.db, who, request.body);
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
    async (request) => getList(app.db, await owner(request), request.params.id),
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
    async (request) => renameList(app.db, await owner(request), request.params.id, request.body.name),
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
      await deleteList(app.db, await owner(request), request.params.id);
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
    async (request) => addToList(app.db, await owner(request), request.params.id, request.body),
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
        await owner(request),
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
    async (request) => removeFromList(app.db, await owner(request), request.params.id, request.params.code),
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
    async (request) => shareList(app.db, await owner(request), request.params.id),
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
    async (request) => unshareList(app.db, await owner(request), request.params.id),
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
