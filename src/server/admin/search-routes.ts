import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  searchMissListSchema,
  searchMissQuerySchema,
  synonymIdParamsSchema,
  synonymInputSchema,
  synonymListSchema,
  synonymSchema,
} from '../../shared/schemas/search-admin.ts';
import { writeAudit } from '../audit/log.ts';
import { deleteSynonym, listMisses, listSynonyms, saveSynonym } from '../catalog/vocabulary.ts';
import { staffActor } from './context.ts';

const tags = ['administración'];
const shown = (r: { id: number; term: string; canonical: string; updatedAt: Date }) => ({
  id: r.id,
  term: r.term,
  canonical: r.canonical,
  updatedAt: r.updatedAt.toISOString(),
});

/** The lab's vocabulary (synonyms the search uses) and the searches that found little (decision 020). */
export const searchAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/search/synonyms',
    {
      config: { permission: 'clientes.gestionar' },
      schema: { tags, summary: 'Sinónimos de búsqueda', response: { 200: synonymListSchema } },
    },
    async () => ({ items: await listSynonyms(app.db) }),
  );

  app.post(
    '/api/admin/search/synonyms',
    {
      config: { permission: 'clientes.gestionar' },
      schema: {
        tags,
        summary: 'Agrega un sinónimo (el término que escriben → el nombre en el catálogo)',
        body: synonymInputSchema,
        response: { 201: synonymSchema },
      },
    },
    async (request, reply) => {
      const actor = await staffActor(request);
      const row = await app.db.transaction(async (tx) => {
        const saved = await saveSynonym(tx, null, request.body);
        await writeAudit(tx, actor, {
          action: 'synonym.create',
          entityType: 'synonym',
          entityId: saved.id,
          after: request.body,
        });
        return saved;
      });
      return reply.code(201).send(shown(row));
    },
  );

  app.put(
    '/api/admin/search/synonyms/:id',
    {
      config: { permission: 'clientes.gestionar' },
      schema: {
        tags,
        summary: 'Cambia un sinónimo',
        params: synonymIdParamsSchema,
        body: synonymInputSchema,
        response: { 200: synonymSchema },
      },
    },
    async (request) => {
      const actor = await staffActor(request);
      return app.db.transaction(async (tx) => {
        const saved = await saveSynonym(tx, request.params.id, request.body);
        await writeAudit(tx, actor, {
          action: 'synonym.update',
          entityType: 'synonym',
          entityId: saved.id,
          after: request.body,
        });
        return shown(saved);
      });
    },
  );

  app.delete(
    '/api/admin/search/synonyms/:id',
    {
      config: { permission: 'clientes.gestionar' },
      schema: {
        tags,
        summary: 'Elimina un sinónimo',
        params: synonymIdParamsSchema,
        response: { 200: z.object({ ok: z.literal(true) }) },
      },
    },
    async (request) => {
      const actor = await staffActor(request);
      await app.db.transaction(async (tx) => {
        const gone = await deleteSynonym(tx, request.params.id);
        await writeAudit(tx, actor, {
          action: 'synonym.delete',
          entityType: 'synonym',
          entityId: gone.id,
          before: { term: gone.term, canonical: gone.canonical },
        });
      });
      return { ok: true as const };
    },
  );

  app.get(
    '/api/admin/search/misses',
    {
      config: { permission: 'clientes.gestionar' },
      schema: {
        tags,
        summary:
          'Búsquedas sin resultados o con pocos (término, resultados, veces, días; sin datos personales)',
        querystring: searchMissQuerySchema,
        response: { 200: searchMissListSchema },
      },
    },
    async (request) => ({ items: await listMisses(app.db, request.query.days), days: request.query.days }),
  );
};
