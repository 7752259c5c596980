import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageSchema } from '../../shared/schemas/common.ts';
import {
  chooseInstitutionSchema,
  institutionAuditQuerySchema,
  institutionAuditSchema,
  institutionOrdersSchema,
  institutionParamsSchema,
  institutionSettingsSchema,
  institutionViewSchema,
  invitationPreviewSchema,
  invitationTokenParamsSchema,
  membershipViewSchema,
  myInstitutionsSchema,
} from '../../shared/schemas/institutions.ts';
import { actorOf } from '../audit/log.ts';
import { requireUser } from '../auth/session.ts';
import { memberFor } from './access.ts';
import { addressRoutes } from './address-routes.ts';
import { institutionAuditPage } from './audit.ts';
import { setSettings } from './institutions.ts';
import { acceptInvitation, previewInvitation } from './invitations.ts';
import { memberRoutes } from './member-routes.ts';
import { buyingFor, chooseInstitution } from './membership.ts';
import { membershipView, myInstitutions } from './mine.ts';
import { institutionOrders } from './orders.ts';

const PAGE = 25;

/**
 * The members' own area of an institution (/api/institutions, decision 058). Every call takes the person from the
 * session and their role from the membership row (access.ts memberFor): nothing in the URL or body names a role.
 */
export const institutionRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['instituciones'];
  app.addHook('onSend', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
  });

  app.get(
    '/api/institutions/mine',
    {
      schema: {
        tags,
        summary: 'Las instituciones de la persona y la institución para la que compra esta sesión',
        response: { 200: myInstitutionsSchema },
      },
    },
    async (request) => myInstitutions(app.db, (await requireUser(request)).id, await buyingFor(request)),
  );

  app.put(
    '/api/institutions/active',
    {
      schema: {
        tags,
        summary: 'Elige para quién compra esta sesión (null: para usted mismo)',
        body: chooseInstitutionSchema,
        response: { 200: myInstitutionsSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      await chooseInstitution(request, request.body.institutionId);
      return myInstitutions(app.db, user.id, await buyingFor(request));
    },
  );

  app.get(
    '/api/institutions/invitations/:token',
    {
      schema: {
        tags,
        summary: 'Qué institución invita, con qué papel y a qué correo (antes de aceptar)',
        params: invitationTokenParamsSchema,
        response: { 200: invitationPreviewSchema },
      },
    },
    async (request, reply) => {
      reply.header('Referrer-Policy', 'no-referrer');
      return previewInvitation(app.db, request.params.token);
    },
  );

  app.post(
    '/api/institutions/invitations/:token/accept',
    {
      schema: {
        tags,
        summary: 'Acepta la invitación (una sola vez, con la cuenta del correo invitado)',
        params: invitationTokenParamsSchema,
        response: { 200: messageSchema.extend({ institutionId: institutionViewSchema.shape.id }) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const joined = await acceptInvitation(app.db, user, request.params.token);
      return {
        institutionId: joined.institutionId,
        message: `Ya es miembro de ${joined.institution}. Elíjala en «Comprando para» para comprar a su nombre.`,
      };
    },
  );

  app.get(
    '/api/institutions/:id',
    {
      schema: {
        tags,
        summary: 'La institución, su papel en ella y lo que ese papel permite',
        params: institutionParamsSchema,
        response: { 200: membershipViewSchema },
      },
    },
    async (request) => membershipView((await memberFor(request, request.params.id, null)).membership),
  );

  app.put(
    '/api/institutions/:id/settings',
    {
      schema: {
        tags,
        summary: 'Reglas de compra de la institución (administrador)',
        params: institutionParamsSchema,
        body: institutionSettingsSchema,
        response: { 200: institutionViewSchema },
      },
    },
    async (request) => {
      const { user } = await memberFor(request, request.params.id, 'settings.manage');
      return setSettings(app.db, actorOf(user), request.params.id, request.body);
    },
  );

  app.get(
    '/api/institutions/:id/orders',
    {
      schema: {
        tags,
        summary: 'Los pedidos de todos los miembros para la institución',
        params: institutionParamsSchema,
        response: { 200: institutionOrdersSchema },
      },
    },
    async (request) => {
      await memberFor(request, request.params.id, 'orders.read_all');
      return institutionOrders(app.db, request.params.id);
    },
  );

  app.get(
    '/api/institutions/:id/audit',
    {
      schema: {
        tags,
        summary: 'Bitácora de la institución: miembros, invitaciones, reglas y direcciones (administrador)',
        params: institutionParamsSchema,
        querystring: institutionAuditQuerySchema,
        response: { 200: institutionAuditSchema },
      },
    },
    async (request) => {
      await memberFor(request, request.params.id, 'audit.read');
      const { page } = request.query;
      const { items, total } = await institutionAuditPage(app.db, request.params.id, {
        limit: PAGE,
        offset: (page - 1) * PAGE,
      });
      return { items, total, page, pages: Math.max(1, Math.ceil(total / PAGE)) };
    },
  );

  await app.register(memberRoutes);
  await app.register(addressRoutes);
};
