import { z } from 'zod';

/**
 * Every error the API answers: `{ error: { code, message, fields? } }`, the message in Spanish, `fields`
 * naming each invalid field. The routes' OpenAPI responses and the browser's API client use this one shape.
 */
export const errorEnvelopeSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;
