import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageSchema } from '../../shared/schemas/common.ts';
import {
  institutionParamsSchema,
  invitationCreateSchema,
  invitationParamsSchema,
  memberParamsSchema,
  membersResponseSchema,
  memberUpdateSchema,
} from '../../shared/schemas/institutions.ts';
import { actorOf } from '../audit/log.ts';
import { memberFor } from './access.ts';
import { createInvitation, revokeInvitation } from './invitations.ts';
import { removeMember, updateMember } from './members.ts';
import { invitationsOf, membersOf } from './views.ts';

/** Members and invitations, for the administrador ('members.manage'). */
export const memberRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['instituciones'];

  app.get(
    '/api/institutions/:id/members',
    {
      schema: {
        tags,
        summary: 'Miembros con su papel, límites y gasto del mes, e invitaciones pendientes',
        params: institutionParamsSchema,
        response: { 200: membersResponseSchema },
      },
    },
    async (request) => {
      await memberFor(request, request.params.id, 'members.manage');
      return {
        members: await membersOf(app.db, request.params.id),
        invitations: await invitationsOf(app.db, request.params.id),
      };
    },
  );

  app.post(
    '/api/institutions/:id/invitations',
    {
      schema: {
        tags,
        summary: 'Invita por correo a una persona con un papel (enlace de un solo uso, 7 días)',
        params: institutionParamsSchema,
        body: invitationCreateSchema,
        response: { 201: messageSchema },
      },
    },
    async (request, reply) => {
      const { user } = await memberFor(request, request.params.id, 'members.manage');
      await app.db.transaction((tx) =>
        createInvitation(
          tx,
          { actor: actorOf(user), userId: user.id, name: `${user.nombre} ${user.apellidoPat}`.trim() },
          request.params.id,
          request.body,
          app.config.publicUrl,
        ),
      );
      reply.code(201);
      return { message: `Invitación enviada a ${request.body.email}` };
    },
  );

  app.delete(
    '/api/institutions/:id/invitations/:invitationId',
    {
      schema: {
        tags,
        summary: 'Retira una invitación pendiente',
        params: invitationParamsSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      const { user } = await memberFor(request, request.params.id, 'members.manage');
      await revokeInvitation(app.db, actorOf(user), request.params.id, request.params.invitationId);
      return { message: 'Invitación retirada' };
    },
  );

  app.put(
    '/api/institutions/:id/members/:userId',
    {
      schema: {
        tags,
        summary: 'Cambia el papel y los límites de un miembro',
        params: memberParamsSchema,
        body: memberUpdateSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      const { user } = await memberFor(request, request.params.id, 'members.manage');
      await updateMember(app.db, actorOf(user), request.params.id, request.params.userId, request.body);
      return { message: 'Miembro actualizado' };
    },
  );

  app.delete(
    '/api/institutions/:id/members/:userId',
    {
      schema: {
        tags,
        summary: 'Da de baja a un miembro (no al último administrador)',
        params: memberParamsSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      const { user } = await memberFor(request, request.params.id, 'members.manage');
      await removeMember(app.db, actorOf(user), request.params.id, request.params.userId);
      return { message: 'Miembro dado de baja' };
    },
  );
};
