import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actorOf } from './audit.ts';
import { requireStaff } from './guard.ts';
import type { StaffContext } from './orders-service.ts';

/** The gateway, mail address and logger of a staff request. */
export const staffContext = (app: FastifyInstance, request: FastifyRequest): StaffContext => ({
  db: app.db,
  gateway: app.paymentGateway,
  publicUrl: app.config.publicUrl,
  log: request.log,
});

/** The signed-in staff member as the audit names them. */
export const staffActor = async (request: FastifyRequest) => actorOf(await requireStaff(request));
