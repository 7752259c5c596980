import type { FastifyRequest } from 'fastify';
import type { Charge } from './gateway.ts';

/**
 * What the shop does with a charge the gateway reports (the 3-D Secure return, the webhook). The payments
 * feature only talks to the gateway; the checkout settles the order and app.ts hands it in, so imports run
 * checkout → orders → payments and never back.
 */
export type ChargeReports = {
  /** The order a charge belongs to, or null. */
  orderOf(chargeId: string, orderId: string | null): Promise<number | null>;
  /** Brings that order in line with the charge; true when the order is paid. */
  settle(number: number, charge: Charge, request: FastifyRequest): Promise<boolean>;
};
