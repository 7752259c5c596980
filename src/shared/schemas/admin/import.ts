import { z } from 'zod';
import { base64 } from './products.ts';

/** Catalogue import (CSV). Part of the back-office API contract (../admin.ts). */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;

/** POST /api/admin/import: the CSV's raw bytes in base64, so the server judges the encoding. */
export const importRequestSchema = z.object({
  filename: z.string().max(200).default('productos.csv'),
  contentBase64: base64(IMPORT_MAX_BYTES),
  dryRun: z.boolean().default(true),
  /** Import nothing when any row is rejected. */
  strict: z.boolean().default(false),
});
export type ImportRequest = z.input<typeof importRequestSchema>;

export const importReportSchema = z.object({
  dryRun: z.boolean(),
  /** Rows read (without the header). */
  rows: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  rejected: z.array(
    z.object({ line: z.number().int(), code: z.string().nullable(), reasons: z.array(z.string()) }),
  ),
  batches: z.array(
    z.object({
      index: z.number().int(),
      firstLine: z.number().int(),
      lastLine: z.number().int(),
      rows: z.number().int(),
      landed: z.boolean(),
      error: z.string().nullable(),
    }),
  ),
  brandsCreated: z.array(z.string()),
  /** A few of the changes, for the screen: code → what changed. */
  changes: z.array(
    z.object({
      line: z.number().int(),
      code: z.string(),
      kind: z.enum(['created', 'updated']),
      fields: z.array(z.string()),
    }),
  ),
  message: z.string(),
});
export type ImportReport = z.infer<typeof importReportSchema>;
