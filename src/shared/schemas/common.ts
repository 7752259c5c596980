import { z } from 'zod';

/** Shapes more than one feature's payloads share; each is defined here once. */

/** `:number` of /api/orders/:number…, /api/admin/orders/:number… and /api/admin/invoices/:number…. */
export const orderNumberParamsSchema = z.object({
  number: z.coerce
    .number({ error: 'Número de pedido inválido' })
    .int('Número de pedido inválido')
    .min(1, 'Número de pedido inválido')
    .max(2_147_483_647, 'Número de pedido inválido'),
});

/** An answer that is only a Spanish sentence for the person who asked. */
export const messageSchema = z.object({ message: z.string() });

/** A shipping address as stored and shown (the account's saved one, an order's snapshot). */
export const addressSchema = z.object({
  nombreEnvio: z.string(),
  telefonoEnvio: z.string(),
  cpEnvio: z.string(),
  calleEnvio: z.string(),
  numExtEnvio: z.string(),
  numIntEnvio: z.string(),
  coloniaEnvio: z.string(),
  municipioEnvio: z.string(),
  ciudadEnvio: z.string(),
  estadoEnvio: z.string(),
  paisEnvio: z.string(),
});
export type Address = z.infer<typeof addressSchema>;

/** A saved address's id: `:id` of /api/account/addresses/:id and the address chosen at checkout (issue 20). */
export const addressIdSchema = z
  .number({ error: 'Dirección no encontrada' })
  .int('Dirección no encontrada')
  .min(1, 'Dirección no encontrada')
  .max(2_147_483_647, 'Dirección no encontrada');
