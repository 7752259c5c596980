import type { FastifyInstance, FastifyRequest } from 'fastify';

const isLoopback = (address: string) =>
  address === '::1' || /^127\./.test(address) || /^::ffff:127\./.test(address);

/**
 * True when the request comes from this same machine: the socket's own address, never X-Forwarded-For alone (a
 * proxy on this machine would make every client look local: the client's address counts too when a proxy is
 * believed). The development mailbox and /metrics use it.
 */
export function fromThisMachine(app: FastifyInstance, request: FastifyRequest): boolean {
  const direct = request.socket.remoteAddress ?? '';
  const client = app.config.trustProxy === 0 ? direct : request.ip;
  return isLoopback(direct) && isLoopback(client);
}
