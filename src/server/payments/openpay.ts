import {
  type Charge,
  type ChargeRefund,
  type ChargeStatus,
  type CreateChargeInput,
  type CreatePayoutInput,
  type DelayedChargeInput,
  GatewayError,
  GatewayUnavailableError,
  type PaymentGateway,
  type Payout,
  type PayoutStatus,
} from './gateway.ts';

export type OpenpayOptions = {
  /** https://sandbox-api.openpay.mx or https://api.openpay.mx (or a local replica in tests). */
  apiUrl: string;
  merchantId: string;
  privateKey: string;
  /** Per request; a charge that takes longer is treated as "unknown" and looked up by order_id. */
  timeoutMs?: number;
  fetch?: typeof fetch;
};

/** Openpay's transaction object, as far as we read it. */
type OpenpayTransaction = {
  id: string;
  status: ChargeStatus;
  amount: number;
  currency?: string | null;
  method?: string | null;
  card?: { type?: string | null } | null;
  order_id?: string | null;
  error_code?: number | null;
  error_message?: string | null;
  payment_method?: {
    type?: string;
    url?: string;
    bank?: string;
    clabe?: string;
    name?: string;
    reference?: string;
    barcode_url?: string;
  } | null;
  due_date?: string | null;
  /** The last refund (open-pay/slate `charges.md`, 'Devolver un cargo': the answer's `refund` object). */
  refund?: OpenpayRefund | null;
  /** Every refund, when the answer lists them (openpay-java `Transaction.refunds`, `SimpleRefund`). */
  refunds?: OpenpayRefund[] | null;
};

/** A refund transaction: id, amount, status, description, creation_date / operation_date. */
type OpenpayRefund = {
  id?: string;
  amount?: number;
  status?: string;
  description?: string | null;
  creation_date?: string | null;
  operation_date?: string | null;
};

/**
 * A payout transaction (open-pay/slate `payments.md`, 'Pago a cuenta bancaria' and 'Obtener un pago'):
 * `transaction_type: "payout"`, `operation_type: "out"`, `method: "bank_account"`, status, amount, order_id,
 * creation_date, error_message, and `bank_account` with the CLABE masked ('012XXXXXXXXXX24616'), bank_code,
 * bank_name and holder_name.
 */
type OpenpayPayout = {
  id: string;
  status: string;
  amount: number;
  order_id?: string | null;
  creation_date?: string | null;
  error_code?: number | null;
  error_message?: string | null;
  bank_account?: { clabe?: string; bank_name?: string | null; holder_name?: string | null } | null;
};

type OpenpayErrorBody = {
  category?: string;
  error_code?: number;
  description?: string;
  http_code?: number;
  request_id?: string;
};

const toPesos = (cents: number) => Number((cents / 100).toFixed(2));
const toCents = (pesos: number) => Math.round(pesos * 100);

function refundFromOpenpay(r: OpenpayRefund): ChargeRefund {
  return {
    id: r.id ?? '',
    amountCents: toCents(r.amount ?? 0),
    status: r.status ?? 'completed',
    description: r.description ?? null,
    createdAt: r.operation_date ?? r.creation_date ?? null,
  };
}

/**
 * How much of the charge went back: the sum of `refunds` when the answer lists them (a failed refund returned
 * nothing); else the whole charge when its status is 'refunded'; else the last `refund` alone — a lower bound
 * after several partial refunds, which is why the list is preferred.
 */
function refundedCentsOf(t: OpenpayTransaction, refunds: ChargeRefund[] | null): number {
  const whole = t.status === 'refunded' ? toCents(t.amount) : 0;
  if (refunds) {
    const sum = refunds.filter((r) => r.status !== 'failed').reduce((total, r) => total + r.amountCents, 0);
    return Math.max(sum, whole);
  }
  return Math.max(whole, t.refund?.amount !== undefined ? toCents(t.refund.amount) : 0);
}

export function chargeFromOpenpay(t: OpenpayTransaction): Charge {
  const refunds = Array.isArray(t.refunds) ? t.refunds.map(refundFromOpenpay) : null;
  return {
    id: t.id,
    status: t.status,
    amountCents: toCents(t.amount),
    currency: (t.currency ?? 'MXN').toUpperCase(),
    refundedCents: refundedCentsOf(t, refunds),
    method:
      t.method === 'card'
        ? 'card'
        : t.method === 'bank_account'
          ? 'spei'
          : t.method === 'store'
            ? 'cash'
            : null,
    cardType: t.card?.type === 'credit' || t.card?.type === 'debit' ? t.card.type : null,
    orderId: t.order_id ?? null,
    errorCode: t.error_code ?? null,
    errorMessage: t.error_message ?? null,
    redirectUrl: t.payment_method?.type === 'redirect' ? (t.payment_method.url ?? null) : null,
    payTo: payToOf(t.payment_method),
    dueDate: t.due_date ?? null,
    lastRefund: t.refund ? refundFromOpenpay(t.refund) : null,
    refunds,
  };
}

const PAYOUT_STATUSES: readonly PayoutStatus[] = ['in_progress', 'completed', 'failed', 'cancelled'];

export function payoutFromOpenpay(p: OpenpayPayout): Payout {
  // A status outside the documented ones is not a payout we can count as done or failed: still in progress.
  const status = PAYOUT_STATUSES.includes(p.status as PayoutStatus)
    ? (p.status as PayoutStatus)
    : 'in_progress';
  return {
    id: p.id,
    status,
    amountCents: toCents(p.amount),
    clabe: p.bank_account?.clabe ?? '',
    holderName: p.bank_account?.holder_name ?? null,
    bankName: p.bank_account?.bank_name ?? null,
    orderId: p.order_id ?? null,
    errorCode: p.error_code ?? null,
    errorMessage: p.error_message ?? null,
    createdAt: p.creation_date ?? '',
  };
}

/**
 * Openpay's payment_method of a bank_account charge (`type: bank_transfer`, `bank`, `clabe`, `name` — the
 * reference of the transfer) or of a store charge (`type: store`, `reference`, `barcode_url`).
 */
function payToOf(pm: OpenpayTransaction['payment_method']): Charge['payTo'] {
  if (pm?.type === 'bank_transfer' && pm.clabe) {
    return { type: 'bank_transfer', bank: pm.bank ?? '', clabe: pm.clabe, name: pm.name ?? '' };
  }
  if (pm?.type === 'store' && pm.reference) {
    return { type: 'store', reference: pm.reference, barcodeUrl: pm.barcode_url ?? null };
  }
  return null;
}

/** ISO 8601 in UTC without milliseconds, as Openpay's examples write due_date (2014-08-01T00:50:00Z). */
export const openpayDate = (d: Date) => `${d.toISOString().slice(0, 19)}Z`;

/** Openpay's REST API over fetch (the npm SDK is callback-only and unmaintained). */
export class OpenpayGateway implements PaymentGateway {
  readonly name = 'openpay' as const;
  private readonly base: string;
  private readonly auth: string;
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(options: OpenpayOptions) {
    this.base = `${options.apiUrl.replace(/\/$/, '')}/v1/${encodeURIComponent(options.merchantId)}`;
    // HTTP Basic: the private key is the user, the password is empty.
    this.auth = `Basic ${Buffer.from(`${options.privateKey}:`).toString('base64')}`;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.fetchImpl = options.fetch ?? fetch;
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.base}${path}`, {
        method,
        headers: {
          Authorization: this.auth,
          Accept: 'application/json',
          ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new GatewayUnavailableError(`Openpay no respondió: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const text = await response.text().catch(() => '');
    let data: unknown = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = null;
    }
    if (response.ok) return data as T;
    // 5xx (1000 internal, 1004 unavailable): the outcome is unknown, not a decision.
    if (response.status >= 500) {
      throw new GatewayUnavailableError(`Openpay respondió ${response.status}`);
    }
    const e = (data ?? {}) as OpenpayErrorBody;
    throw new GatewayError(
      e.category ?? 'request',
      typeof e.error_code === 'number' ? e.error_code : null,
      e.description ?? null,
      e.http_code ?? response.status,
      e.request_id ?? null,
    );
  }

  async createCharge(input: CreateChargeInput): Promise<Charge> {
    const t = await this.call<OpenpayTransaction>('POST', '/charges', {
      method: 'card',
      source_id: input.token,
      amount: toPesos(input.amountCents),
      currency: 'MXN',
      description: input.description.slice(0, 250),
      order_id: input.orderId,
      device_session_id: input.deviceSessionId,
      customer: {
        name: input.customer.name,
        last_name: input.customer.lastName,
        phone_number: input.customer.phoneNumber,
        email: input.customer.email,
      },
      // 3-D Secure only when asked for (after an anti-fraud decline); redirect_url goes only with it.
      ...(input.use3dSecure ? { use_3d_secure: true, redirect_url: input.redirectUrl } : {}),
      // Meses sin intereses: payment_plan.payments, only when more than one payment.
      ...(input.msiMonths && input.msiMonths > 1 ? { payment_plan: { payments: input.msiMonths } } : {}),
    });
    return chargeFromOpenpay(t);
  }

  /**
   * POST /charges with method bank_account (SPEI) or store (Paynet): amount, currency, description, order_id,
   * due_date (ISO 8601) and the customer (required for store charges at merchant level). No source_id, no
   * device_session_id: there is no card.
   */
  async createDelayedCharge(input: DelayedChargeInput): Promise<Charge> {
    const t = await this.call<OpenpayTransaction>('POST', '/charges', {
      method: input.method === 'spei' ? 'bank_account' : 'store',
      amount: toPesos(input.amountCents),
      currency: 'MXN',
      description: input.description.slice(0, 250),
      order_id: input.orderId,
      due_date: openpayDate(input.dueDate),
      customer: {
        name: input.customer.name,
        last_name: input.customer.lastName,
        phone_number: input.customer.phoneNumber,
        email: input.customer.email,
      },
    });
    return chargeFromOpenpay(t);
  }

  async getCharge(chargeId: string): Promise<Charge> {
    return chargeFromOpenpay(
      await this.call<OpenpayTransaction>('GET', `/charges/${encodeURIComponent(chargeId)}`),
    );
  }

  /**
   * GET /tokens/{id}: Openpay's token object carries the card (its «objeto tarjeta», whose `type` is debit, credit…:
   * open-pay/slate source/includes/es/tokens.md and cards.md). Unknown when the token's card says nothing or the
   * look-up fails: the charge itself then decides (an MSI charge on debit is refused, error 3006).
   */
  async cardTypeOfToken(token: string): Promise<'credit' | 'debit' | null> {
    try {
      const t = await this.call<{ card?: { type?: string | null } | null }>(
        'GET',
        `/tokens/${encodeURIComponent(token)}`,
      );
      const type = t?.card?.type;
      return type === 'credit' || type === 'debit' ? type : null;
    } catch (error) {
      if (error instanceof GatewayError || error instanceof GatewayUnavailableError) return null;
      throw error;
    }
  }

  async findChargeByOrderId(orderId: string): Promise<Charge | null> {
    const list = await this.call<OpenpayTransaction[]>(
      'GET',
      `/charges?order_id=${encodeURIComponent(orderId)}&limit=10`,
    );
    const charges = (Array.isArray(list) ? list : []).map(chargeFromOpenpay);
    // A completed or pending charge is the one that matters; a failed attempt only if nothing else.
    return charges.find((c) => c.status !== 'failed') ?? charges[0] ?? null;
  }

  /**
   * 'Devolver un cargo' (open-pay/slate `charges.md`): POST /charges/{id}/refund with `description` (optional,
   * ≤ 250) and `amount` (optional, > 0, ≤ the charge, two decimals); "Solo se pueden hacer devoluciones de cargos
   * a tarjeta". Answers the charge with its `refund`.
   */
  async refund(chargeId: string, options: { description: string; amountCents?: number }): Promise<Charge> {
    return chargeFromOpenpay(
      await this.call<OpenpayTransaction>('POST', `/charges/${encodeURIComponent(chargeId)}/refund`, {
        description: options.description.slice(0, 250),
        ...(options.amountCents !== undefined ? { amount: toPesos(options.amountCents) } : {}),
      }),
    );
  }

  /**
   * 'Pago a cuenta bancaria' (open-pay/slate `payments.md`): POST /payouts with `method: "bank_account"`,
   * `bank_account: {clabe, holder_name}`, `amount` (> 0, two decimals), `description` (≤ 250) and `order_id`
   * (≤ 100, "único entre todas las transacciones"). Answers the payout in_progress.
   */
  async createPayout(input: CreatePayoutInput): Promise<Payout> {
    return payoutFromOpenpay(
      await this.call<OpenpayPayout>('POST', '/payouts', {
        method: 'bank_account',
        bank_account: { clabe: input.clabe, holder_name: input.holderName.slice(0, 100) },
        amount: toPesos(input.amountCents),
        description: input.description.slice(0, 250),
        order_id: input.orderId,
      }),
    );
  }

  async getPayout(payoutId: string): Promise<Payout> {
    return payoutFromOpenpay(
      await this.call<OpenpayPayout>('GET', `/payouts/${encodeURIComponent(payoutId)}`),
    );
  }

  /**
   * 'Listado de pagos' documents the filters creation, creation[gte], creation[lte], offset, limit (default 10),
   * amount and payout_type — no order_id — and answers newest first. So: the payouts created since the day before
   * `createdSince` (Openpay's dates are Mexico's central time; a day's margin covers the offset), page by page,
   * matched on order_id here. order_id is sent as well, harmless if ignored and narrowing if honoured.
   */
  async findPayoutByOrderId(orderId: string, createdSince: Date): Promise<Payout | null> {
    const since = new Date(createdSince.getTime() - 86_400_000).toISOString().slice(0, 10);
    const pageSize = 100;
    for (let page = 0; page < FIND_PAYOUT_MAX_PAGES; page++) {
      // Brackets literal, as in Openpay's own example (curl -g "…/payouts?creation[gte]=2013-11-01&limit=2").
      const query = `creation[gte]=${since}&order_id=${encodeURIComponent(orderId)}&offset=${page * pageSize}&limit=${pageSize}`;
      const list = await this.call<OpenpayPayout[]>('GET', `/payouts?${query}`);
      const payouts = Array.isArray(list) ? list : [];
      const found = payouts.find((p) => p.order_id === orderId);
      if (found) return payoutFromOpenpay(found);
      if (payouts.length < pageSize) return null;
    }
    // More payouts in the window than we read: "not found" would be a guess, so say we do not know.
    throw new GatewayUnavailableError(
      `Openpay: más de ${FIND_PAYOUT_MAX_PAGES * pageSize} pagos desde ${since}; no se pudo buscar ${orderId}`,
    );
  }
}

/** How many pages of 100 payouts findPayoutByOrderId reads before giving up (a shop makes few payouts a day). */
const FIND_PAYOUT_MAX_PAGES = 20;
