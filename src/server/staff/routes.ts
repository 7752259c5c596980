import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { NO_PERMISSION } from '../../shared/schemas/admin.ts';
import { messageSchema } from '../../shared/schemas/common.ts';
import {
  enrolmentSchema,
  enrolResponseSchema,
  secondFactorCodeSchema,
  staffAcceptSchema,
  staffInvitationPreviewSchema,
  staffInvitationTokenSchema,
  staffMeSchema,
  totpCodeSchema,
  verifyResponseSchema,
} from '../../shared/schemas/staff.ts';
import { permissionsOf, STAFF_DISABLED, STAFF_DISABLED_MESSAGE } from '../../shared/staff-roles.ts';
import {
  forgetSessionUser,
  getSessionStaff,
  requireUser,
  type StaffSession,
  setSessionCookie,
} from '../auth/session.ts';
import { AppError, forbidden } from '../http/errors.ts';
import { acceptStaffInvitation, previewStaffInvitation } from './accounts.ts';
import {
  confirmEnrolment,
  enrolmentOf,
  SECOND_FACTOR_MESSAGES,
  verifySecondFactor,
} from './second-factor.ts';

/**
 * The staff's steps before the back office opens (decision 064): who they are and what they may do, the second
 * factor's enrolment and verification, and an invitation's acceptance. These sit outside /api/admin because a session
 * that has not passed the second factor must reach them; each asks for a signed-in, active staff account itself.
 */
async function requireStaffAccount(request: FastifyRequest) {
  const user = await requireUser(request);
  const staff = await getSessionStaff(request);
  if (user.role !== 'staff' || !staff) throw forbidden(NO_PERMISSION);
  if (staff.disabled) throw new AppError(403, STAFF_DISABLED, STAFF_DISABLED_MESSAGE);
  return { user, staff } as { user: typeof user; staff: StaffSession };
}

export const staffRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['personal'];
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
  });

  app.get(
    '/api/staff/me',
    {
      schema: {
        tags,
        summary: 'El miembro del personal de la sesión: su rol, sus permisos y el paso del segundo factor',
        response: { 200: staffMeSchema },
      },
    },
    async (request) => {
      const { user, staff } = await requireStaffAccount(request);
      return {
        email: user.email,
        nombre: user.nombre,
        role: staff.role,
        permissions: staff.secondFactorPassed ? permissionsOf(staff.role) : [],
        secondFactor: staff.secondFactorPassed ? 'done' : staff.totpEnrolled ? 'verify' : 'enrol',
        disabled: staff.disabled,
      } as const;
    },
  );

  app.get(
    '/api/staff/second-factor/enrolment',
    {
      schema: {
        tags,
        summary: 'Secreto TOTP por configurar (código QR y clave), solo mientras no esté activado',
        response: { 200: enrolmentSchema },
      },
    },
    async (request) => {
      const { user } = await requireStaffAccount(request);
      const { secretGrouped, uri, qrSvg } = await enrolmentOf(app.db, user);
      return { secretGrouped, uri, qrSvg };
    },
  );

  app.post(
    '/api/staff/second-factor/enrolment',
    {
      schema: {
        tags,
        summary:
          'Activa el segundo factor con un código de la aplicación; devuelve los 10 códigos de respaldo (una vez)',
        body: totpCodeSchema,
        response: { 200: enrolResponseSchema },
      },
    },
    async (request) => {
      const { user, staff } = await requireStaffAccount(request);
      const { recoveryCodes } = await confirmEnrolment(app.db, user, staff.tokenHash, request.body.code, {
        ip: request.ip,
      });
      forgetSessionUser(request);
      return { message: SECOND_FACTOR_MESSAGES.enrolled, recoveryCodes };
    },
  );

  app.post(
    '/api/staff/second-factor/verify',
    {
      schema: {
        tags,
        summary:
          'Segundo paso del ingreso: código de la aplicación (una vez) o un código de respaldo (una vez)',
        body: secondFactorCodeSchema,
        response: { 200: verifyResponseSchema },
      },
    },
    async (request) => {
      const { user, staff } = await requireStaffAccount(request);
      const { recoveryCodesLeft } = await verifySecondFactor(
        app.db,
        user,
        staff.tokenHash,
        request.body.code,
        { ip: request.ip },
      );
      forgetSessionUser(request);
      return { message: SECOND_FACTOR_MESSAGES.verified, recoveryCodesLeft };
    },
  );

  app.get(
    '/api/staff/invitations/:token',
    {
      schema: {
        tags,
        summary: 'Invitación al personal: correo, rol y vigencia',
        params: staffInvitationTokenSchema,
        response: { 200: staffInvitationPreviewSchema },
      },
    },
    async (request) => previewStaffInvitation(app.db, request.params.token),
  );

  app.post(
    '/api/staff/invitations/:token/accept',
    {
      schema: {
        tags,
        summary:
          'Acepta la invitación: nombre y contraseña; deja la sesión iniciada para configurar el segundo factor',
        params: staffInvitationTokenSchema,
        body: staffAcceptSchema,
        response: { 200: messageSchema },
      },
    },
    async (request, reply) => {
      const { session, message } = await acceptStaffInvitation(app.db, request.params.token, request.body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      setSessionCookie(reply, app.config, session);
      forgetSessionUser(request);
      return { message };
    },
  );
};
