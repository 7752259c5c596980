import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { groupsResponseSchema } from '../../shared/schemas/catalog.ts';
import { listGroupTree } from './service.ts';

export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/groups',
    {
      schema: {
        tags: ['catálogo'],
        summary: 'Árbol de grupos del menú',
        response: { 200: groupsResponseSchema },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'public, max-age=300');
      return { groups: await listGroupTree(app.db) };
    },
  );
};
