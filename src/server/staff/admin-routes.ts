import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageSchema } from '../../shared/schemas/common.ts';
import {
  staffIdParamsSchema,
  staffInviteSchema,
  staffListSchema,
  staffRoleChangeSchema,
} from '../../shared/schemas/staff.ts';
import { actorOf } from '../audit/log.ts';
import { requireUser } from '../auth/session.ts';
import {
  changeStaffRole,
  deactivateStaff,
  inviteStaff,
  listStaff,
  reactivateStaff,
  revokeStaffInvitation,
  STAFF_MESSAGES,
} from './accounts.ts';
import { resetSecondFactor } from './second-factor.ts';

/** /admin/personal (decision 064): the administrator's staff screen. Every route: 'personal.gestionar'. */
export const staffAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['administración'];
  const config = { permission: 'personal.gestionar' } as const;
  // The admin guard has already checked the staff member and the permission (guard.ts); this names the actor.
  const actor = async (request: Parameters<typeof requireUser>[0]) => actorOf(await requireUser(request));

  app.get(
    '/api/admin/staff',
    {
      config,
      schema: {
        tags,
        summary: 'Personal: rol, estado, segundo factor, última actividad; e invitaciones pendientes',
        response: { 200: staffListSchema },
      },
    },
    async () => listStaff(app.db),
  );

  app.post(
    '/api/admin/staff/invitations',
    {
      config,
      schema: {
        tags,
        summary: 'Invita por correo (enlace de un solo uso, 7 días) con un rol',
        body: staffInviteSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { message } = await inviteStaff(
        app.db,
        { actor: actorOf(user), userId: user.id, name: `${user.nombre} ${user.apellidoPat}`.trim() },
        request.body,
        app.config.publicUrl,
      );
      return { message };
    },
  );

  app.delete(
    '/api/admin/staff/invitations/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Retira una invitación pendiente',
        params: staffIdParamsSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      await revokeStaffInvitation(app.db, await actor(request), request.params.id);
      return { message: 'Invitación retirada' };
    },
  );

  app.put(
    '/api/admin/staff/:id/role',
    {
      config,
      schema: {
        tags,
        summary: 'Cambia el rol (nunca deja a la tienda sin un administrador activo)',
        params: staffIdParamsSchema,
        body: staffRoleChangeSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => changeStaffRole(app.db, await actor(request), request.params.id, request.body.role),
  );

  for (const [path, summary, run] of [
    ['deactivate', 'Desactiva la cuenta y cierra sus sesiones', deactivateStaff],
    ['reactivate', 'Reactiva la cuenta', reactivateStaff],
  ] as const) {
    app.post(
      `/api/admin/staff/:id/${path}`,
      {
        config,
        schema: {
          tags,
          summary,
          params: staffIdParamsSchema,
          response: { 200: messageSchema },
        },
      },
      async (request) => run(app.db, await actor(request), request.params.id),
    );
  }

  app.post(
    '/api/admin/staff/:id/second-factor/reset',
    {
      config,
      schema: {
        tags,
        summary:
          'Restablece la verificación en dos pasos (teléfono perdido): la configurará de nuevo al entrar',
        params: staffIdParamsSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      await resetSecondFactor(app.db, await actor(request), request.params.id);
      return { message: STAFF_MESSAGES.secondFactorReset };
    },
  );
};
