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
  /** ISO 4217 ('MXN'). */
  currency: string;
  refundedCents: number;
  /** 'card', 'spei' (bank_account) or 'cash' (store), from Openpay's method. */
  method: 'card' | 'spei' | 'cash' | null;
  /** For cards: 'credit' or 'debit' (Openpay's card.type); null when unknown. */
  cardType: 'credit' | 'debit' | null;
  /** The order_id we sent (our reference), as the gateway reports it. */
  orderId: string | null;
  /** Set on failed charges (Openpay's error_code / error_message). */
  errorCode: number | null;
  errorMessage: string | null;
  /** 3-D Secure: where the shopper must go to authenticate (status charge_pending). */
  redirectUrl: string | null;
  /**
   * SPEI (bank_account) and store charges: how to pay them, from Openpay's payment_method — `bank_transfer`
   * with bank, CLABE and name (the reference the transfer must carry), or `store` with the Paynet reference and
   * the barcode's URL. Null for cards.
   */
  payTo?: PayTo | null;
  /** SPEI and store: until when Openpay accepts the payment (its due_date), ISO 8601; null when none. */
  dueDate?: string | null;
  /**
   * Openpay's `refund`: the LAST refund of the charge. Openpay's 'Devolver un cargo' answer documents only this
   * one object, so after several partial refunds it tells nothing of the earlier ones. Null when never refunded.
   */
  lastRefund?: ChargeRefund | null;
  /**
   * Openpay's `refunds`: every refund of the charge, oldest first, when the answer carries the list (Openpay's
   * Java SDK reads it, `Transaction.refunds`; the API reference does not show it). Null when the answer did
   * not carry it: then only `lastRefund` and `refundedCents` are known.
   */
  refunds?: ChargeRefund[] | null;
};

/** One refund of a charge (Openpay's refund transaction: `transaction_type: "refund"`, `operation_type: "out"`). */
export type ChargeRefund = {
  id: string;
  amountCents: number;
  /** The refund transaction's status ('completed'; 'in_progress' or 'failed' are possible transaction statuses). */
  status: string;
  description: string | null;
  /** Openpay's operation_date (creation_date when absent), ISO 8601. */
  createdAt: string | null;
};

export type PayTo =
  | { type: 'bank_transfer'; bank: string; clabe: string; name: string }
  | { type: 'store'; reference: string; barcodeUrl: string | null };

export type ChargeCustomer = { name: string; lastName: string; email: string; phoneNumber: string };

export type CreateChargeInput = {
  /** The card token made in the browser (Openpay.js, or the simulator's tokenization endpoint). */
  token: string;
  deviceSessionId: string;
  amountCents: number;
  /**
   * Our reference for this attempt (payments.order_ref: the order number and a random suffix): unique across
   * all charges of the merchant, so a repeat is refused (1006) instead of charged twice.
   */
  orderId: string;
  description: string;
  customer: ChargeCustomer;
  use3dSecure: boolean;
  /** Where the gateway sends the shopper back after 3-D Secure (with ?id={chargeId}); sent only with use3dSecure. */
  redirectUrl: string;
  /** Meses sin intereses: Openpay's payment_plan.payments (3, 6, 9, 12); omitted for a single payment. */
  msiMonths?: number | undefined;
};

/**
 * A charge paid later by the buyer (issue 21): SPEI transfer (Openpay method 'bank_account') or cash at a store
 * ('store'). No card token; Openpay answers status in_progress with the payment_method to pay it, and refuses
 * the payment after due_date.
 */
export type DelayedChargeInput = {
  method: 'spei' | 'cash';
  amountCents: number;
  orderId: string;
  description: string;
  customer: ChargeCustomer;
  dueDate: Date;
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

  /** A decision about the card (declined, expired, stolen…) or its data, as opposed to a fault. */
  get isCardDecline(): boolean {
    return errorKind(this.errorCode) !== 'ours';
  }
}

/**
 * Whose problem an Openpay error is: the bank's decision about the card (3001–3012), the card's data as typed
 * (2004–2009; 1005 is a card token that no longer exists — the card form makes a new one), or ours
 * (authentication, configuration, the merchant account, the request we built: 1000-series, 4001…, anything
 * else). Ours are never told to the shopper as a decline.
 */
export function errorKind(errorCode: number | null): 'decline' | 'card_data' | 'ours' {
  if (errorCode === null) return 'ours';
  if (errorCode >= 3001 && errorCode <= 3012) return 'decline';
  if ((errorCode >= 2004 && errorCode <= 2009) || errorCode === 1005) return 'card_data';
  return 'ours';
}

/** Openpay's anti-fraud decline: retried once with 3-D Secure (selective authentication). */
export const ANTIFRAUD_DECLINE = 3005;

/** What the shopper reads when the payment failed on our side (answered 503; nothing was charged). */
export const PAYMENT_ERROR_MESSAGE =
  'No pudimos procesar el pago en este momento. No se hizo ningún cargo a su tarjeta; intente de nuevo en unos minutos.';

/** The gateway could not be reached or did not answer in time: the charge may or may not exist. */
export class GatewayUnavailableError extends Error {}

export interface PaymentGateway {
  readonly name: 'sandbox' | 'openpay';
  createCharge(input: CreateChargeInput): Promise<Charge>;
  /** A SPEI or store charge: answers it in_progress with `payTo` and `dueDate`. */
  createDelayedCharge(input: DelayedChargeInput): Promise<Charge>;
  getCharge(chargeId: string): Promise<Charge>;
  /**
   * 'credit' or 'debit' of the card behind a browser-made token (Openpay: GET /tokens/{id}, its `card` object's
   * `type`), or null when the gateway does not tell: meses sin intereses are refused for debit before any charge.
   */
  cardTypeOfToken(token: string): Promise<'credit' | 'debit' | null>;
  /** The charge made with this order_id, if any (Openpay: GET /charges?order_id=…). */
  findChargeByOrderId(orderId: string): Promise<Charge | null>;
  /**
   * POST /charges/{id}/refund: card charges only; `amountCents` omitted refunds what is left. Several partial
   * refunds may follow one another up to the charge's amount. Answers the charge as it is after the refund
   * (`refundedCents` includes it; status 'refunded' once nothing is left, 'completed' before). Refused
   * (`isNotRefundable`) for a SPEI or store charge, a charge not completed, or more than what is left.
   * Openpay takes no idempotency key here: after a timeout, read the charge and use `refundLanded`.
   */
  refund(chargeId: string, options: { description: string; amountCents?: number }): Promise<Charge>;
  /**
   * POST /payouts: send money from the merchant's Openpay balance to a CLABE (how a SPEI or store payment goes
   * back). Answers it in_progress; Openpay executes it later (next business day) and then reports completed or
   * failed. `orderId` is unique among ALL the merchant's transactions: a repeat is refused with 1006
   * (DUPLICATE_ORDER_ID), never paid twice. Refused with 4001 (INSUFFICIENT_BALANCE) when the balance is short.
   */
  createPayout(input: CreatePayoutInput): Promise<Payout>;
  /** GET /payouts/{id}. */
  getPayout(payoutId: string): Promise<Payout>;
  /**
   * The payout made with this order_id since `createdSince`, if any — after a crash between the request and our
   * record. Openpay documents no order_id filter for payouts: this lists them by creation date and matches
   * order_id here (so `createdSince` must be no later than the request was sent).
   */
  findPayoutByOrderId(orderId: string, createdSince: Date): Promise<Payout | null>;
}

/** Openpay's payout statuses: in_progress until executed; completed; failed; cancelled (DELETE /payouts/{id}). */
export type PayoutStatus = 'in_progress' | 'completed' | 'failed' | 'cancelled';

export type Payout = {
  id: string;
  status: PayoutStatus;
  amountCents: number;
  /** The CLABE as Openpay answers it: MASKED, first 3 and last 5 digits ('012XXXXXXXXXX24616'). */
  clabe: string;
  holderName: string | null;
  /** Openpay's bank_account.bank_name ('BANCOMER'), null when absent. */
  bankName: string | null;
  /** Our reference, as sent. */
  orderId: string | null;
  /** Set on a failed payout (the transaction's error_code, when Openpay gives one, and error_message). */
  errorCode: number | null;
  errorMessage: string | null;
  /** Openpay's creation_date, ISO 8601. */
  createdAt: string;
};

export type CreatePayoutInput = {
  amountCents: number;
  /** 18 digits, already checked with `checkClabe` (src/shared/clabe.ts). */
  clabe: string;
  /** The account holder's name (Openpay's bank_account.holder_name). */
  holderName: string;
  description: string;
  /** Our reference for this payout, unique across all the merchant's transactions (charges too). */
  orderId: string;
};

/**
 * Openpay's 1003 (422 Unprocessable Entity, "el valor de uno o más de los parámetros no es correcto"): what a
 * refund of a SPEI/store charge, of a charge not completed, or of more than what is left is answered with.
 */
export const NOT_REFUNDABLE = 1003;

/**
 * The gateway refused this refund for good (NOT_REFUNDABLE): nothing was refunded. The caller reads the charge
 * (`refundableCents`) to see why — not a card, not completed, or less left than asked — and sends the money by
 * another route (a payout to a CLABE) or for less.
 */
export function isNotRefundable(error: unknown): boolean {
  return error instanceof GatewayError && error.errorCode === NOT_REFUNDABLE;
}

/** How much of this charge can still go back to the card through `refund`: 0 for SPEI, store or not completed. */
export function refundableCents(charge: Charge): number {
  if (charge.method !== 'card' || charge.status !== 'completed') return 0;
  return Math.max(0, charge.amountCents - charge.refundedCents);
}

/**
 * After a refund whose answer was lost (timeout, 5xx): did it happen? Openpay has no idempotency key for
 * refunds, so the caller records how much of the charge was refunded before asking (`refundedBeforeCents`, from
 * the charge it read or its own ledger), sends at most one refund of a charge at a time, and after a lost answer
 * reads the charge: the refund landed when the refunded total grew by at least its amount. Sending it again
 * without this check could refund twice; Openpay would refuse only what exceeds the charge.
 */
export function refundLanded(
  charge: Charge,
  expected: { refundedBeforeCents: number; amountCents: number },
): boolean {
  return charge.refundedCents >= expected.refundedBeforeCents + expected.amountCents;
}

/** Openpay's 4001 (412): the merchant's Openpay balance cannot cover the payout. */
export const INSUFFICIENT_BALANCE = 4001;
/**
 * Openpay's 3006 'La operación no está permitida para este cliente o esta transacción' (412): what an MSI charge
 * (payment_plan) on a card that cannot take one answers (decision 048).
 */
export const OPERATION_NOT_ALLOWED = 3006;

/** What the buyer reads when meses sin intereses were chosen with a debit card. */
export const MSI_NOT_ON_DEBIT =
  'Los meses sin intereses solo se pueden pagar con tarjeta de crédito, y esta es una tarjeta de débito. Elija «Una sola exhibición» o use una tarjeta de crédito; no se hizo ningún cargo.';

/** Openpay's duplicate order_id error: the charge for this order already exists. */
export const DUPLICATE_ORDER_ID = 1006;

/**
 * Spanish text for a card declined by the bank (3001–3012) or refused for its data (2004–2009, 1005), per
 * Openpay's error codes (issue 6, issue 14; spec §8). Errors of ours have PAYMENT_ERROR_MESSAGE instead.
 */
export function declineMessage(errorCode: number | null, _description?: string | null): string {
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
    case 3005:
      return 'El pago fue rechazado por el sistema antifraude';
    case 3006:
      return 'La operación no está permitida para esta tarjeta';
    case 3007:
      return 'Tarjeta declinada';
    case 3008:
      return 'La tarjeta no es aceptada para compras en línea';
    case 3009:
      return 'La tarjeta fue reportada como perdida';
    case 3010:
      return 'El banco restringió la tarjeta';
    case 3011:
      return 'El banco solicitó retener la tarjeta; comuníquese con su banco';
    case 3012:
      return 'Requiere autorización del banco';
    case 2004:
      return 'Tarjeta declinada: el número de tarjeta no es válido';
    case 2006:
    case 2009:
      return 'Tarjeta declinada: el código de seguridad no es válido';
    case 2007:
      return 'El número de tarjeta es de prueba; use una tarjeta real';
    case 2008:
      return 'La tarjeta no es válida para este pago';
    case 1005:
      return 'Los datos de la tarjeta ya no son válidos; ingréselos de nuevo';
  }
  return 'Tarjeta declinada';
}

/**
 * A charge counts for an attempt only if it is ours: our reference, the attempt's amount and currency. A charge
 * found by order_id after a 1006, a timeout or in the sweeper that fails this is somebody else's (another
 * database on the same merchant) and must never make an order paid.
 */
export function chargeMatches(
  charge: Charge,
  expected: { orderRef: string | null; amountCents: number; currency?: string },
): boolean {
  if (expected.orderRef !== null && charge.orderId !== expected.orderRef) return false;
  return charge.amountCents === expected.amountCents && charge.currency === (expected.currency ?? 'MXN');
}
