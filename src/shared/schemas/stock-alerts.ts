import { z } from 'zod';
import { emailSchema } from './auth.ts';

/** 'Avísame cuando haya' (issue 35, decision 062): a product's code and where to write; signed in, the account's. */
export const stockAlertRequestSchema = z.object({
  code: z.string().trim().min(1).max(40),
  email: emailSchema.optional(),
});
export type StockAlertRequest = z.infer<typeof stockAlertRequestSchema>;

export const stockAlertResponseSchema = z.object({ message: z.string() });
