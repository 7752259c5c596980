import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { HoldConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { PaymentGateway } from '../payments/gateway.ts';
import type { TaxPapers } from './tax-papers.ts';

/** What an order's transitions work with: the database, the card gateway (refunds), mail links, the log. */
export type OrderContext = {
  db: Db;
  gateway: PaymentGateway;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** How long and how much stock unpaid orders hold (issue 23); the defaults when absent. */
  hold?: HoldConfig;
  /** The CFDI that follows a money movement (invoices, wired by the app); absent in unit tests of orders alone. */
  taxPapers?: TaxPapers;
};

export const DEFAULT_HOLD: HoldConfig = {
  minutes: 30,
  threeDsMinutes: 10,
  maxPendingOrders: 2,
  maxReservedUnits: 500,
  maxUnpaidSharePercent: 50,
};

/** The context of one request (its logger), for routes of any feature that changes orders. */
export const orderContext = (app: FastifyInstance, request: FastifyRequest): OrderContext => ({
  db: app.db,
  gateway: app.paymentGateway,
  publicUrl: app.config.publicUrl,
  log: request.log,
  hold: app.config.payments.hold,
  taxPapers: app.taxPapers,
});
