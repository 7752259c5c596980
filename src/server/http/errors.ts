import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';

export type FieldErrors = Record<string, string>;

/** A known, expected failure: answered as a 4xx with a Spanish message. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly fields?: FieldErrors,
    /** Extra response headers (e.g. Retry-After on a 429). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notFound = (message: string) => new AppError(404, 'not_found', message);
export const badRequest = (message: string, fields?: FieldErrors) =>
  new AppError(400, 'invalid_request', message, fields);
export const conflict = (message: string, code = 'conflict') => new AppError(409, code, message);
export const unauthorized = (message = 'Inicie sesión para continuar') =>
  new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'No tiene permiso para esta acción') =>
  new AppError(403, 'forbidden', message);
/** A provider the shop depends on (card gateway, PAC) refused or failed: nothing was changed. */
export const badGateway = (code: string, message: string) => new AppError(502, code, message);

const INVALID = 'La solicitud contiene datos inválidos';

/** Zod's built-in messages are English ('Invalid input: expected object, received null', 'Too big: …'). */
const ZOD_DEFAULT = /^(Invalid|Too (big|small)|Unrecognized|Expected|Required)\b/;

/** Messages for Fastify's own 4xx errors (body parsing, limits, content types). */
const fastifyCodes: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'La solicitud es demasiado grande' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: 'Tipo de contenido no admitido; envíe JSON' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: 'Longitud de contenido inválida' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'El cuerpo JSON está vacío' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'El cuerpo no es JSON válido' },
  FST_ERR_CTP_EMPTY_TYPE: { status: 415, message: 'Falta el tipo de contenido' },
  FST_ERR_CTP_INVALID_TYPE: { status: 415, message: 'Tipo de contenido no admitido' },
  FST_ERR_VALIDATION: { status: 400, message: INVALID },
};

function zodFieldErrors(error: FastifyError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.validation ?? []) {
    const params = issue.params as { issue?: { path?: PropertyKey[]; message?: string } } | undefined;
    const path = params?.issue?.path?.map(String).join('.') || issue.instancePath.replace(/^\//, '') || '_';
    const message = params?.issue?.message ?? issue.message ?? INVALID;
    // Zod's built-in English messages never reach a shopper: schemas in src/shared set Spanish ones.
    if (!(path in fields))
      fields[path] =
        (/^[\x20-\x7e]*$/.test(message) && !message.includes(' ')) || ZOD_DEFAULT.test(message)
          ? INVALID
          : message;
  }
  return fields;
}

/** Network errors of the connection to PostgreSQL, and PostgreSQL's own 'not now' classes. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection terminated unexpectedly|the database system is (starting up|shutting down)/i;

/**
 * True when an error (or any error it wraps: Drizzle wraps the driver's) says the database cannot be
 * reached right now, as opposed to a query that failed: the shopper gets a 503 and may try again.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
    e = cause;
  }
  return false;
}

export const UNAVAILABLE_MESSAGE =
  'El servicio no está disponible por el momento. Intente de nuevo en unos minutos.';

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return reply.code(error.statusCode).send({
        error: {
          code: error.code,
          message: error.message,
          ...(error.fields ? { fields: error.fields } : {}),
        },
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = zodFieldErrors(error);
      const first = Object.values(fields)[0];
      return reply.code(400).send({
        error: { code: 'invalid_request', message: first ?? INVALID, fields },
      });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'la respuesta no cumple su esquema');
      return reply.code(500).send({ error: { code: 'internal', message: 'Error interno del servidor' } });
    }
    const known = error.code ? fastifyCodes[error.code] : undefined;
    if (known) {
      return reply.code(known.status).send({ error: { code: 'invalid_request', message: known.message } });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return reply.code(429).send({
        error: { code: 'too_many_requests', message: 'Demasiados intentos. Intente de nuevo más tarde.' },
      });
    }
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ error: { code: 'invalid_request', message: INVALID } });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'base de datos no disponible');
      return reply
        .code(503)
        .header('Retry-After', '5')
        .send({ error: { code: 'unavailable', message: UNAVAILABLE_MESSAGE } });
    }
    request.log.error({ err: error }, 'error no controlado');
    return reply.code(500).send({ error: { code: 'internal', message: 'Error interno del servidor' } });
  });
}

export function sendNotFound(reply: FastifyReply) {
  return reply.code(404).send({ error: { code: 'not_found', message: 'Recurso no encontrado' } });
}

/**
 * Fastify's answers before routing (`frameworkErrors`): a malformed percent-encoding or a path
 * parameter longer than maxParamLength, in the shop's error shape and in Spanish.
 */
export function sendFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  // A page's address with a broken escape (/busqueda/%E0%A4%A) is a page that does not exist: the shop's 404
  // page (src/server/spa), not an API error in JSON.
  const page = (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api/');
  const notFoundPage = request.server.notFoundPage;
  if (page && error.code === 'FST_ERR_BAD_URL' && notFoundPage) return notFoundPage(request, reply);
  return reply.code(tooLong ? 414 : 400).send({
    error: {
      code: 'invalid_request',
      message: tooLong ? 'La dirección es demasiado larga' : 'La dirección de la solicitud no es válida',
    },
  });
}

/**
 * Node's HTTP parser errors (`clientErrorHandler`): headers too large (431), a request not received
 * within requestTimeout (408), anything unparsable (400); answered in Spanish, then the socket closes.
 */
export function handleClientError(error: NodeJS.ErrnoException, socket: Duplex) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'Los encabezados de la solicitud son demasiado grandes']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'La solicitud tardó demasiado en llegar']
        : [400, 'Bad Request', 'La solicitud no es válida'];
  const body = JSON.stringify({ error: { code: 'invalid_request', message } });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
