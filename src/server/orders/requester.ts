import type { Actor } from '../audit/log.ts';

/**
 * Who asks for a change of an order's state. The transition functions take it as their policy: a shopper
 * acts only on their own orders, staff actions are written to the audit log, the sweeper and the gateway
 * (its answer to a charge, the 3-D Secure return, the webhook) act on what the gateway says.
 */
export type ShopperRequest = { kind: 'shopper'; userId: number };
export type StaffRequest = { kind: 'staff'; actor: Actor };
export type SweeperRequest = { kind: 'sweeper' };
export type GatewayRequest = { kind: 'gateway' };
export type Requester = ShopperRequest | StaffRequest | SweeperRequest | GatewayRequest;

export const SWEEPER: SweeperRequest = { kind: 'sweeper' };
export const GATEWAY: GatewayRequest = { kind: 'gateway' };
