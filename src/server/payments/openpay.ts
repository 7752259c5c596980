import {
  type Charge,
  type ChargeStatus,
  type CreateChargeInput,
  type DelayedChargeInput,
  GatewayError,
  GatewayUnavailableError,
  type PaymentGateway,
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
  refund?: { amount?: number } | null;
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

export function chargeFromOpenpay(t: OpenpayTransaction): Charge {
  const refunded = t.refund?.amount ?? (t.status === 'refunded' ? t.amount : 0);
  return {
    id: t.id,
    status: t.status,
    amountCents: toCents(t.amount),
    currency: (t.currency ?? 'MXN').toUpperCase(),
    refundedCents: toCents(refunded),
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

  async refund(chargeId: string, options: { description: string; amountCents?: number }): Promise<Charge> {
    return chargeFromOpenpay(
      await this.call<OpenpayTransaction>('POST', `/charges/${encodeURIComponent(chargeId)}/refund`, {
        description: options.description.slice(0, 250),
        ...(options.amountCents !== undefined ? { amount: toPesos(options.amountCents) } : {}),
      }),
    );
  }
}
