import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PROOF_HEADER } from '../../shared/proof-of-work.ts';
import {
  loginSchema,
  recoveryRequestSchema,
  recoveryResetSchema,
  registerSchema,
  registerVerifySchema,
  sessionResponseSchema,
  signInResponseSchema,
} from '../../shared/schemas/auth.ts';
import { messageSchema } from '../../shared/schemas/common.ts';
import { login, MESSAGES, register, requestRecovery, resetWithCode, verifyRegistration } from './service.ts';
import {
  clearSessionCookie,
  deleteSessionByToken,
  forgetSessionUser,
  getSessionUser,
  readSessionToken,
  setSessionCookie,
} from './session.ts';

/** The browser's solved proof of work, when its address had to give one (throttle.ts checkAddress). */
const proofOf = (request: FastifyRequest) => {
  const value = request.headers[PROOF_HEADER];
  return typeof value === 'string' ? value.slice(0, 80) : undefined;
};
const client = (request: FastifyRequest) => ({ ip: request.ip, proof: proofOf(request) });
const meta = (request: FastifyRequest) => ({ ...client(request), userAgent: request.headers['user-agent'] });

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['cuentas'];

  app.get(
    '/api/auth/session',
    {
      schema: {
        tags,
        summary: 'Usuario de la sesión (null para un visitante)',
        response: { 200: sessionResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return { user: await getSessionUser(request) };
    },
  );

  app.post(
    '/api/auth/register',
    {
      schema: {
        tags,
        summary:
          'Registro, paso 1: envía un código de 6 dígitos al correo. La misma respuesta si el correo ya tiene cuenta (a ese correo se le avisa).',
        body: registerSchema,
        response: { 200: signInResponseSchema },
      },
    },
    async (request) => {
      const { message } = await register(app.db, request.body, meta(request), app.config.publicUrl);
      return { user: null, message };
    },
  );

  app.post(
    '/api/auth/register/verify',
    {
      schema: {
        tags,
        summary: 'Registro, paso 2: el código del correo crea la cuenta y deja la sesión iniciada.',
        body: registerVerifySchema,
        response: { 200: signInResponseSchema },
      },
    },
    async (request, reply) => {
      const result = await verifyRegistration(app.db, request.body, meta(request), app.config.publicUrl);
      const old = readSessionToken(request);
      if (old) await deleteSessionByToken(app.db, old);
      setSessionCookie(reply, app.config, result.session);
      forgetSessionUser(request);
      return { user: result.user, message: MESSAGES.registered };
    },
  );

  app.post(
    '/api/auth/login',
    {
      schema: {
        tags,
        summary: 'Ingreso con correo y contraseña',
        body: loginSchema,
        response: { 200: signInResponseSchema },
      },
    },
    async (request, reply) => {
      const result = await login(app.db, request.body, meta(request));
      // A new token at every sign-in: a token planted before it (session fixation) is worthless.
      const old = readSessionToken(request);
      if (old) await deleteSessionByToken(app.db, old);
      setSessionCookie(reply, app.config, result.session);
      forgetSessionUser(request);
      return { user: result.user, message: MESSAGES.signedIn };
    },
  );

  app.post(
    '/api/auth/logout',
    {
      schema: { tags, summary: 'Cierra la sesión en el servidor', response: { 200: messageSchema } },
    },
    async (request, reply) => {
      const token = readSessionToken(request);
      if (token) await deleteSessionByToken(app.db, token);
      clearSessionCookie(reply, app.config);
      forgetSessionUser(request);
      return { message: MESSAGES.signedOut };
    },
  );

  app.post(
    '/api/auth/recovery',
    {
      schema: {
        tags,
        summary: 'Envía un código de recuperación (misma respuesta exista o no la cuenta)',
        body: recoveryRequestSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => requestRecovery(app.db, request.body, client(request), app.config.publicUrl),
  );

  app.post(
    '/api/auth/recovery/reset',
    {
      schema: {
        tags,
        summary: 'Nueva contraseña con el código de recuperación; cierra todas las sesiones',
        body: recoveryResetSchema,
        response: { 200: messageSchema },
      },
    },
    async (request, reply) => {
      const result = await resetWithCode(app.db, request.body, client(request), app.config.publicUrl);
      clearSessionCookie(reply, app.config);
      return result;
    },
  );
};
