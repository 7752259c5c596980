import type { FastifyRequest } from 'fastify';
import { actorOf } from '../audit/log.ts';
import type { StaffRequest } from '../orders/requester.ts';
import { requireStaff } from './guard.ts';

/** The signed-in staff member as the audit names them. */
export const staffActor = async (request: FastifyRequest) => actorOf(await requireStaff(request));

/** The signed-in staff member as the one who asks for an order's change. */
export const staffRequest = async (request: FastifyRequest): Promise<StaffRequest> => ({
  kind: 'staff',
  actor: await staffActor(request),
});
