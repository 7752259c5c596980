/**
 * One interface for every card gateway (Openpay, and the offline simulator that mimics it).
 * Amounts are centavos here; adapters convert to what their API wants.
 */

/** Openpay's transaction statuses (a charge's life). */
export type ChargeStatus =
  | 'in_progress'
  | 'completed'
  | 'refunded'
  | 'charge_pending'
  | 'cancelled'
  | 'failed'
  | 'chargeback_pending'
  | 'chargeback_accepted'
  | 'chargeback_adjustment';

export type Charge = {
  id: string;
  status: ChargeStatus;
  amountCents: number;
  refundedCents: number;
  /** Our order number, as sent. */
  orderId: string | null;
  /** Set on failed charges (Openpay's error_code / error_message). */
  errorCode: number | null;
  errorMessage: string | null;
  /** 3-D Secure: where the shopper must go to authenticate (status charge_pending). */
  redirectUrl: string | null;
};

export type ChargeCustomer = { name: string; lastName: string; email: string; phoneNumber: string };

export type CreateChargeInput = {
  /** The card token made in the browser (Openpay.js, or the simulator's tokenization endpoint). */
  token: string;
  deviceSessionId: string;
  amountCents: number;
  /** The order number: unique across all charges, so a repeat is refused instead of charged twice. */
  orderId: string;
  description: string;
  customer: ChargeCustomer;
  use3dSecure: boolean;
  /** Where the gateway sends the shopper back after 3-D Secure (with ?id={chargeId}). */
  redirectUrl: string;
};

/** An error object from the gateway: `{ category, error_code, description, http_code, request_id }`. */
export class GatewayError extends Error {
  constructor(
    readonly category: 'request' | 'internal' | 'gateway' | string,
    readonly errorCode: number | null,
    readonly description: string | null,
    readonly httpCode: number,
    readonly requestId: string | null,
  ) {
    super(description ?? `error ${errorCode ?? httpCode}`);
  }

  /** A decision about the card (declined, expired, stolen…), as opposed to a fault. */
  get isCardDecline(): boolean {
    return this.errorCode !== null && this.errorCode >= 2004 && this.errorCode < 4000;
  }
}

/** The gateway could not be reached or did not answer in time: the charge may or may not exist. */
export class GatewayUnavailableError extends Error {}

export interface PaymentGateway {
  readonly name: 'sandbox' | 'openpay';
  createCharge(input: CreateChargeInput): Promise<Charge>;
  getCharge(chargeId: string): Promise<Charge>;
  /** The charge made with this order_id, if any (Openpay: GET /charges?order_id=…). */
  findChargeByOrderId(orderId: string): Promise<Charge | null>;
  /** Full refund when amountCents is omitted. */
  refund(chargeId: string, options: { description: string; amountCents?: number }): Promise<Charge>;
}

/** Openpay's duplicate order_id error: the charge for this order already exists. */
export const DUPLICATE_ORDER_ID = 1006;

/** Spanish text for a rejected charge, per Openpay error code (issue 6; spec §8). */
export function declineMessage(errorCode: number | null, description: string | null): string {
  switch (errorCode) {
    case 3001:
      return 'Tarjeta declinada';
    case 3002:
    case 2005:
      return 'La tarjeta ha expirado';
    case 3003:
      return 'La tarjeta no tiene fondos suficientes';
    case 3004:
      return 'La tarjeta fue reportada como robada';
    case 3009:
      return 'La tarjeta fue reportada como perdida';
    case 3005:
      return 'El pago fue rechazado por el sistema antifraude';
    case 2004:
      return 'Tarjeta declinada: el número de tarjeta no es válido';
    case 2006:
    case 2009:
      return 'Tarjeta declinada: el código de seguridad no es válido';
    case 1005:
      return 'Los datos de la tarjeta ya no son válidos; ingréselos de nuevo';
  }
  if (!description) return 'Solicitud inválida';
  return 'Tarjeta declinada';
}
