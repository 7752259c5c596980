import type { FastifyRequest } from 'fastify';
import { badRequest } from './errors.ts';

/** True when a string, or any key or string inside plain arrays and objects, holds U+0000. */
export function containsNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return true;
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v)) {
      for (const [key, item] of Object.entries(v)) {
        if (key.includes('\u0000')) return true;
        stack.push(item);
      }
    }
  }
  return false;
}

/**
 * PostgreSQL text and jsonb cannot hold U+0000, so a parameter, query or body carrying it would
 * reach the database only to fail there (a 500). It is refused first, as bad input.
 */
export async function rejectNulCharacters(request: FastifyRequest) {
  if (containsNul(request.params) || containsNul(request.query) || containsNul(request.body)) {
    throw badRequest('La solicitud contiene caracteres no permitidos');
  }
}
