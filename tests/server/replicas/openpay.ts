import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local replica of Openpay's HTTP API for tests (127.0.0.1, random port): the real paths under
 * /v1/{merchantId}, HTTP Basic with the private key, Openpay's bodies and error objects, 409/1006 for a
 * repeated order_id, and charge_pending + a redirect for 3-D Secure. Faults can be injected.
 */
type Txn = {
  id: string;
  authorization: string | null;
  operation_type: 'in';
  method: 'card' | 'bank_account' | 'store';
  transaction_type: 'charge';
  status: string;
  conciliated: boolean;
  creation_date: string;
  operation_date: string;
  description: string;
  error_message: string | null;
  error_code?: number;
  order_id: string | null;
  amount: number;
  currency: string;
  customer: unknown;
  card?: { card_number: string; holder_name: string; brand: string; type: string };
  payment_method?:
    | { type: 'redirect'; url: string }
    | { type: 'bank_transfer'; bank: string; clabe: string; name: string }
    | { type: 'store'; reference: string; barcode_url: string };
  due_date?: string;
  payment_plan?: { payments: number };
  /** The last refund, as 'Devolver un cargo' documents the answer. */
  refund?: RefundTxn;
  /** Every refund, oldest first (the list openpay-java reads as `Transaction.refunds`). */
  refunds?: RefundTxn[];
  redirect_url?: string;
};

type RefundTxn = {
  id: string;
  amount: number;
  authorization: string;
  method: 'card';
  operation_type: 'out';
  transaction_type: 'refund';
  status: 'completed';
  currency: string;
  creation_date: string;
  operation_date: string;
  description: string;
  error_message: null;
  order_id: null;
};

/** A payout transaction as 'Pago a cuenta bancaria' / 'Obtener un pago' answer it (open-pay/slate `payments.md`). */
type PayoutTxn = {
  id: string;
  amount: number;
  authorization: string | null;
  method: 'bank_account';
  operation_type: 'out';
  transaction_type: 'payout';
  status: 'in_progress' | 'completed' | 'failed' | 'cancelled';
  currency: 'MXN';
  creation_date: string;
  operation_date: string;
  description: string;
  error_message: string | null;
  order_id: string | null;
  bank_account: { clabe: string; bank_code: string; bank_name: string; alias: null; holder_name: string };
};

/** Openpay's documented 1003 (422) for refunds it will not make; the sandbox answers the same words. */
const REFUND_REFUSALS = {
  notCard: 'Only card charges can be refunded',
  notCompleted: 'The charge can not be refunded',
  tooMuch: 'The refund amount exceeds the amount left to refund',
} as const;

/** Banxico's CLABE check (weights 3, 7, 1), written out here so the replica does not trust the code it tests. */
function clabeValid(clabe: string): boolean {
  if (!/^\d{18}$/.test(clabe)) return false;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (Number(clabe[i]) * [3, 7, 1][i % 3]!) % 10;
  return (10 - (sum % 10)) % 10 === Number(clabe[17]);
}

/** Amounts in pesos with at most two decimals ("con hasta dos dígitos decimales"). */
const twoDecimals = (n: number) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6;
const cents = (pesos: number) => Math.round(pesos * 100);

export type ReplicaRequest = {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
};

/** The decline rows of Openpay's sandbox test-card page (decision 024), and 4000…0002 that older tests use. */
const declines: Record<string, { code: number; description: string }> = {
  '4222222222222220': { code: 3001, description: 'The card was declined' },
  '4000000000000002': { code: 3001, description: 'The card was declined' },
  '4000000000000069': { code: 3002, description: 'The card has expired' },
  '4444444444444448': { code: 3003, description: 'The card doesn’t have sufficient funds' },
  '4000000000000119': { code: 3004, description: 'The card was reported as stolen' },
  '4000000000000044': { code: 3005, description: 'Fraud risk detected by anti-fraud system' },
};
/** Openpay's sandbox: the debit test cards (card.type 'debit'); the others answer 'credit'. */
const DEBIT_CARDS = new Set(['5555555555554444', '4000000000000077']);
const cardTypeOf = (cardNumber: string) => (DEBIT_CARDS.has(cardNumber) ? 'debit' : 'credit');

export class OpenpayReplica {
  readonly merchantId = 'mzdtln0bmtms6o3kck8f';
  readonly privateKey = 'sk_e568c42a6c384b7ab02cd47d2e407cab';
  readonly publicKey = 'pk_1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d';
  readonly requests: ReplicaRequest[] = [];
  readonly charges = new Map<string, Txn>();
  readonly payouts = new Map<string, PayoutTxn>();
  /** Added to the merchant's balance (what charges brought in, less refunds and payouts), e.g. to empty it. */
  balanceAdjustment = 0;
  private readonly tokens = new Map<string, { cardNumber: string; holderName: string }>();
  private server: Server | undefined;
  private nextChargeDelayMs = 0;
  /** The next charges fail with these Openpay error objects (http, code), e.g. 3012 or 4001. */
  readonly nextChargeErrors: { http: number; code: number; description: string; category?: string }[] = [];
  private failAfterCharge = 0;
  private failuresLeft: number[] = [];
  private collideAmount: number | null = null;
  url = '';

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        this.send(res, 500, { category: 'internal', error_code: 1000, description: String(error) });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** A token as Openpay.js would create it in the browser. */
  addToken(cardNumber: string, holderName = 'Juan Pérez'): string {
    const id = `k${randomBytes(9).toString('hex')}`;
    this.tokens.set(id, { cardNumber, holderName });
    return id;
  }

  /**
   * The next charge is applied, but its answer comes only after `ms` (a timeout after success);
   * optionally the `thenFail` requests after it answer 503 (the gateway cannot even be asked).
   */
  delayNextChargeAnswer(ms: number, thenFail = 0): void {
    this.nextChargeDelayMs = ms;
    this.failAfterCharge = thenFail;
  }

  /** The next requests answer these HTTP statuses (e.g. 503) without doing anything. */
  failNext(...statuses: number[]): void {
    this.failuresLeft.push(...statuses);
  }

  clearFailures(): void {
    this.failuresLeft = [];
  }

  /**
   * A charge made long ago by another database on the same merchant (e.g. before a reset): completed, with
   * this order_id and amount. A new charge with the same order_id then answers 409/1006.
   */
  addForeignCharge(orderId: string, amount: number, status = 'completed'): string {
    const id = `tr${randomBytes(9).toString('hex')}`;
    const old = new Date(Date.now() - 400 * 86_400_000).toISOString();
    this.charges.set(id, {
      id,
      authorization: '100001',
      operation_type: 'in',
      method: 'card',
      transaction_type: 'charge',
      status,
      conciliated: true,
      creation_date: old,
      operation_date: old,
      description: 'Pedido anterior',
      error_message: null,
      order_id: orderId,
      amount,
      currency: 'MXN',
      customer: null,
      card: { card_number: '411111XXXXXX1111', holder_name: 'Otro', brand: 'visa', type: 'credit' },
    });
    return id;
  }

  /** Whatever the next charge's order_id will be, a completed charge of another database already has it. */
  collideNextOrderId(amount: number): void {
    this.collideAmount = amount;
  }

  /**
   * What happens in Openpay's dashboard or at the bank after a charge: a refund by staff in the dashboard
   * (charge.refunded), a chargeback opened (chargeback.created → status chargeback_pending), won
   * (chargeback.rejected → completed) or lost (chargeback.accepted → chargeback_accepted), the anti-fraud
   * rescoring a completed charge to declined (charge.rescored.to.decline → the charge is cancelled and the
   * money returned). Answers the webhook payload Openpay sends for it.
   */
  dashboard(
    chargeId: string,
    event:
      | 'charge.refunded'
      | 'chargeback.created'
      | 'chargeback.rejected'
      | 'chargeback.accepted'
      | 'charge.rescored.to.decline'
      | 'charge.cancelled',
    amount?: number,
  ): { type: string; event_date: string; transaction: Txn } {
    const t = this.charges.get(chargeId);
    if (!t) throw new Error('no such charge');
    switch (event) {
      case 'charge.refunded':
        this.applyRefund(t, amount ?? t.amount - this.refunded(t), 'Devolución desde el dashboard');
        break;
      case 'chargeback.created':
        t.status = 'chargeback_pending';
        break;
      case 'chargeback.rejected':
        t.status = 'completed';
        break;
      case 'chargeback.accepted':
        t.status = 'chargeback_accepted';
        break;
      case 'charge.rescored.to.decline':
      case 'charge.cancelled':
        t.status = 'cancelled';
        break;
    }
    return { type: event, event_date: new Date().toISOString(), transaction: { ...t } };
  }

  /**
   * The buyer pays a SPEI (bank_account) or store charge: Openpay marks it completed and sends charge.succeeded.
   * Refused after its due_date unless `evenIfDue` (a transfer the bank let through late). Answers the webhook.
   */
  payDelayed(chargeId: string, evenIfDue = false): { type: string; event_date: string; transaction: Txn } {
    const t = this.charges.get(chargeId);
    if (!t || t.method === 'card' || !['in_progress', 'cancelled'].includes(t.status)) {
      throw new Error('no delayed charge to pay');
    }
    if (!evenIfDue && (t.status !== 'in_progress' || (t.due_date && Date.parse(t.due_date) < Date.now()))) {
      throw new Error('the charge is past its due date');
    }
    t.status = 'completed';
    t.operation_date = new Date().toISOString();
    return { type: 'charge.succeeded', event_date: t.operation_date, transaction: { ...t } };
  }

  /** A SPEI or store charge reaches its due_date unpaid: Openpay cancels it (charge.cancelled). */
  expireDelayed(chargeId: string): { type: string; event_date: string; transaction: Txn } {
    const t = this.charges.get(chargeId);
    if (t?.status !== 'in_progress' || t.method === 'card') throw new Error('no delayed charge to expire');
    t.status = 'cancelled';
    return { type: 'charge.cancelled', event_date: new Date().toISOString(), transaction: { ...t } };
  }

  /**
   * Openpay executes a payout (the next business day): completed, or failed with the receiving bank's reason.
   * Answers the webhook payload (payout.succeeded / payout.failed).
   */
  settlePayout(
    payoutId: string,
    outcome: { failed?: string } = {},
  ): { type: string; event_date: string; transaction: PayoutTxn } {
    const p = this.payouts.get(payoutId);
    if (p?.status !== 'in_progress') throw new Error('no payout in progress');
    p.status = outcome.failed ? 'failed' : 'completed';
    p.error_message = outcome.failed ?? null;
    p.operation_date = new Date().toISOString();
    if (!outcome.failed) p.authorization = p.id.toUpperCase();
    return {
      type: outcome.failed ? 'payout.failed' : 'payout.succeeded',
      event_date: p.operation_date,
      transaction: { ...p },
    };
  }

  /** The merchant's balance in pesos: completed charges less their refunds, less payouts not failed. */
  balance(): number {
    let total = this.balanceAdjustment;
    for (const t of this.charges.values()) {
      if (t.status === 'completed' || t.status === 'refunded') total += t.amount - this.refunded(t);
    }
    for (const p of this.payouts.values()) {
      if (p.status === 'in_progress' || p.status === 'completed') total -= p.amount;
    }
    return Math.round(total * 100) / 100;
  }

  private refunded(t: Txn): number {
    return (t.refunds ?? []).reduce((sum, r) => sum + r.amount, 0);
  }

  /** A refund of `amount` pesos: listed, the last one as `refund`, and the charge 'refunded' once none is left. */
  private applyRefund(t: Txn, amount: number, description: string): void {
    const now = new Date().toISOString();
    const refund: RefundTxn = {
      id: `tr${randomBytes(9).toString('hex')}`,
      amount,
      authorization: String(800000 + this.charges.size),
      method: 'card',
      operation_type: 'out',
      transaction_type: 'refund',
      status: 'completed',
      currency: t.currency,
      creation_date: now,
      operation_date: now,
      description,
      error_message: null,
      order_id: null,
    };
    t.refunds = [...(t.refunds ?? []), refund];
    t.refund = refund;
    t.status = cents(this.refunded(t)) >= cents(t.amount) ? 'refunded' : 'completed';
  }

  /** What the bank's 3-D Secure page does: approve or reject a pending charge. */
  complete3ds(chargeId: string, approve: boolean): void {
    const t = this.charges.get(chargeId);
    if (t?.status !== 'charge_pending') throw new Error('no pending charge');
    t.status = approve ? 'completed' : 'failed';
    if (approve) t.authorization = String(100000 + this.charges.size);
    else {
      t.error_code = 3001;
      t.error_message = 'The card was declined';
    }
    delete t.payment_method;
  }

  private send(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private error(res: ServerResponse, http: number, code: number, description: string, category = 'request') {
    this.send(res, http, {
      category,
      error_code: code,
      description,
      http_code: http,
      request_id: randomBytes(8).toString('hex'),
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: Record<string, unknown> = {};
    if (raw) {
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return this.error(res, 400, 1001, 'The request is not a valid JSON');
      }
    }
    const url = new URL(req.url ?? '/', 'http://replica');
    this.requests.push({
      method: req.method ?? '',
      path: url.pathname + url.search,
      authorization: req.headers.authorization,
      body,
    });

    const failure = this.failuresLeft.shift();
    if (failure) return this.error(res, failure, 1004, 'Service unavailable', 'internal');

    const prefix = `/v1/${this.merchantId}`;
    if (!url.pathname.startsWith(`${prefix}/`))
      return this.error(res, 404, 1005, 'The requested resource doesn’t exist');
    const path = url.pathname.slice(prefix.length);
    const expected = `Basic ${Buffer.from(`${this.privateKey}:`).toString('base64')}`;
    if (req.headers.authorization !== expected) {
      return this.error(res, 401, 1002, 'The api key or merchant id are invalid');
    }

    if (req.method === 'POST' && path === '/charges') return this.createCharge(body, res);
    // The token object: its card (masked number, brand, and type, as Openpay's card object has it).
    const tokenPath = path.match(/^\/tokens\/([a-z0-9]+)$/);
    if (req.method === 'GET' && tokenPath) {
      const token = this.tokens.get(tokenPath[1]!);
      if (!token) return this.error(res, 404, 1005, 'The requested resource doesn’t exist');
      return this.send(res, 200, {
        id: tokenPath[1],
        card: {
          card_number: `${token.cardNumber.slice(0, 6)}XXXXXX${token.cardNumber.slice(-4)}`,
          holder_name: token.holderName,
          brand: token.cardNumber.startsWith('5') ? 'mastercard' : 'visa',
          type: cardTypeOf(token.cardNumber),
        },
      });
    }
    if (req.method === 'GET' && path === '/charges') {
      const orderId = url.searchParams.get('order_id');
      return this.send(
        res,
        200,
        [...this.charges.values()].filter((t) => orderId === null || t.order_id === orderId),
      );
    }
    const m = path.match(/^\/charges\/([a-z0-9]+)(\/refund)?$/);
    if (m) {
      const t = this.charges.get(m[1]!);
      if (!t) return this.error(res, 404, 1005, 'The requested resource doesn’t exist');
      if (req.method === 'GET' && !m[2]) return this.send(res, 200, t);
      if (req.method === 'POST' && m[2]) return this.refundCharge(t, body, res);
    }
    if (req.method === 'POST' && path === '/payouts') return this.createPayout(body, res);
    if (req.method === 'GET' && path === '/payouts') return this.listPayouts(url.searchParams, res);
    const payout = path.match(/^\/payouts\/([a-z0-9]+)$/);
    if (req.method === 'GET' && payout) {
      const p = this.payouts.get(payout[1]!);
      if (!p) return this.error(res, 404, 1005, 'The requested resource doesn’t exist');
      return this.send(res, 200, p);
    }
    return this.error(res, 404, 1005, 'The requested resource doesn’t exist');
  }

  /**
   * 'Devolver un cargo': `description` (optional, ≤ 250) and `amount` (optional, > 0, up to two decimals, no more
   * than the charge — here, than what is left of it); "Solo se pueden hacer devoluciones de cargos a tarjeta".
   * Answers the charge with `refund` (the last) and `refunds`.
   */
  private refundCharge(t: Txn, body: Record<string, unknown>, res: ServerResponse) {
    if (
      body.description !== undefined &&
      (typeof body.description !== 'string' || body.description.length > 250)
    ) {
      return this.error(res, 400, 1001, 'description must be at most 250 characters');
    }
    if (t.method !== 'card') return this.error(res, 422, 1003, REFUND_REFUSALS.notCard);
    if (t.status !== 'completed') return this.error(res, 422, 1003, REFUND_REFUSALS.notCompleted);
    const left = (cents(t.amount) - cents(this.refunded(t))) / 100;
    const amount = body.amount === undefined ? left : body.amount;
    if (typeof amount !== 'number' || !(amount > 0) || !twoDecimals(amount)) {
      return this.error(res, 400, 1001, 'amount must be greater than 0 with up to two decimals');
    }
    if (cents(amount) > cents(left)) return this.error(res, 422, 1003, REFUND_REFUSALS.tooMuch);
    this.applyRefund(t, amount, typeof body.description === 'string' ? body.description : '');
    return this.send(res, 200, t);
  }

  /**
   * 'Pago a cuenta bancaria': method bank_account, bank_account {clabe, holder_name}, amount (> 0, two decimals),
   * description (required, ≤ 250), order_id (optional, ≤ 100, unique among all transactions: 409/1006). The
   * Openpay balance must cover it (412/4001). Answers the payout in_progress with the CLABE masked.
   */
  private createPayout(body: Record<string, unknown>, res: ServerResponse) {
    if (body.method !== 'bank_account') return this.error(res, 400, 1001, 'method must be bank_account');
    const account = body.bank_account as { clabe?: unknown; holder_name?: unknown } | undefined;
    if (typeof account?.clabe !== 'string' || !clabeValid(account.clabe)) {
      return this.error(res, 400, 1001, 'bank_account.clabe is not a valid CLABE');
    }
    if (typeof account.holder_name !== 'string' || account.holder_name.trim() === '') {
      return this.error(res, 400, 1001, 'bank_account.holder_name is required');
    }
    if (typeof body.amount !== 'number' || !(body.amount > 0) || !twoDecimals(body.amount)) {
      return this.error(res, 400, 1001, 'amount must be greater than 0 with up to two decimals');
    }
    if (typeof body.description !== 'string' || body.description === '' || body.description.length > 250) {
      return this.error(res, 400, 1001, 'description is required');
    }
    const orderId = typeof body.order_id === 'string' ? body.order_id : null;
    if (orderId !== null && orderId.length > 100) return this.error(res, 400, 1001, 'order_id is too long');
    if (
      orderId &&
      ([...this.charges.values()].some((t) => t.order_id === orderId) ||
        [...this.payouts.values()].some((p) => p.order_id === orderId))
    ) {
      return this.error(res, 409, 1006, 'The orderId already exists');
    }
    if (cents(this.balance()) < cents(body.amount)) {
      return this.error(res, 412, 4001, 'The Openpay account has not enough funds');
    }
    const now = new Date().toISOString();
    const id = `tr${randomBytes(9).toString('hex')}`;
    const p: PayoutTxn = {
      id,
      amount: body.amount,
      authorization: null,
      method: 'bank_account',
      operation_type: 'out',
      transaction_type: 'payout',
      status: 'in_progress',
      currency: 'MXN',
      creation_date: now,
      operation_date: now,
      description: body.description,
      error_message: null,
      order_id: orderId,
      bank_account: {
        clabe: `${account.clabe.slice(0, 3)}XXXXXXXXXX${account.clabe.slice(-5)}`,
        bank_code: account.clabe.slice(0, 3),
        bank_name: account.clabe.startsWith('012') ? 'BANCOMER' : 'BANCO',
        alias: null,
        holder_name: account.holder_name,
      },
    };
    this.payouts.set(id, p);
    return this.send(res, 200, p);
  }

  /**
   * 'Listado de pagos': the documented filters only — creation, creation[gte], creation[lte] (yyyy-mm-dd),
   * amount, offset, limit (default 10) — newest first. Any other parameter (order_id) is ignored.
   */
  private listPayouts(params: URLSearchParams, res: ServerResponse) {
    const day = (iso: string) => iso.slice(0, 10);
    const offset = Number(params.get('offset') ?? 0);
    const limit = Number(params.get('limit') ?? 10);
    const list = [...this.payouts.values()]
      .filter((p) => {
        const created = day(p.creation_date);
        const eq = params.get('creation');
        const gte = params.get('creation[gte]');
        const lte = params.get('creation[lte]');
        const amount = params.get('amount');
        return (
          (eq === null || created === eq) &&
          (gte === null || created >= gte) &&
          (lte === null || created <= lte) &&
          (amount === null || p.amount === Number(amount))
        );
      })
      .reverse()
      .slice(offset, offset + limit);
    return this.send(res, 200, list);
  }

  /**
   * Openpay's 'Cargo en banco' (method bank_account) and 'Cargo en tienda' (method store): amount, description,
   * optional order_id (unique) and due_date (ISO 8601), and the customer (required for store at merchant level).
   * No source_id nor device_session_id. Answers in_progress with payment_method: bank_transfer (bank STP, clabe,
   * name) or store (reference, barcode_url).
   */
  private createDelayedCharge(body: Record<string, unknown>, res: ServerResponse) {
    if (typeof body.amount !== 'number' || body.amount <= 0) {
      return this.error(res, 400, 1001, 'amount must be greater than 0');
    }
    if (typeof body.description !== 'string' || body.description === '' || body.description.length > 250) {
      return this.error(res, 400, 1001, 'description is required');
    }
    for (const forbidden of ['source_id', 'device_session_id', 'use_3d_secure', 'payment_plan']) {
      if (body[forbidden] !== undefined) {
        return this.error(res, 400, 1001, `${forbidden} is not allowed for method ${String(body.method)}`);
      }
    }
    const customer = body.customer as Record<string, unknown> | undefined;
    if (
      body.method === 'store' &&
      (!customer || typeof customer.name !== 'string' || typeof customer.email !== 'string')
    ) {
      return this.error(res, 400, 1001, 'customer is required');
    }
    if (
      body.due_date !== undefined &&
      (typeof body.due_date !== 'string' || Number.isNaN(Date.parse(body.due_date)))
    ) {
      return this.error(res, 400, 1001, 'due_date is not a valid ISO 8601 date');
    }
    if (typeof body.due_date === 'string' && Date.parse(body.due_date) <= Date.now()) {
      return this.error(res, 400, 1001, 'due_date must be in the future');
    }
    const forced = this.nextChargeErrors.shift();
    if (forced) return this.error(res, forced.http, forced.code, forced.description, forced.category);
    const orderId = typeof body.order_id === 'string' ? body.order_id : null;
    if (orderId && [...this.charges.values()].some((t) => t.order_id === orderId)) {
      return this.error(res, 409, 1006, 'The orderId already exists');
    }
    const now = new Date().toISOString();
    const id = `tr${randomBytes(9).toString('hex')}`;
    const digits = (n: number) => Array.from(randomBytes(n), (b) => String(b % 10)).join('');
    const reference = `000020${id.toUpperCase()}${digits(7)}`;
    const t: Txn = {
      id,
      authorization: null,
      operation_type: 'in',
      method: body.method as 'bank_account' | 'store',
      transaction_type: 'charge',
      status: 'in_progress',
      conciliated: false,
      creation_date: now,
      operation_date: now,
      description: body.description,
      error_message: null,
      order_id: orderId,
      amount: body.amount,
      currency: String(body.currency ?? 'MXN'),
      customer: customer ?? null,
      ...(typeof body.due_date === 'string' ? { due_date: body.due_date } : {}),
      payment_method:
        body.method === 'bank_account'
          ? { type: 'bank_transfer', bank: 'STP', clabe: `646180${digits(12)}`, name: digits(7) }
          : {
              type: 'store',
              reference,
              barcode_url: `${this.url}/barcode/${reference}?width=1&height=45&text=false`,
            },
    };
    this.charges.set(id, t);
    return this.send(res, 200, t);
  }

  private async createCharge(body: Record<string, unknown>, res: ServerResponse) {
    if (body.method === 'bank_account' || body.method === 'store') return this.createDelayedCharge(body, res);
    for (const field of ['method', 'source_id', 'amount', 'description', 'device_session_id'] as const) {
      if (body[field] === undefined || body[field] === '') {
        return this.error(res, 400, 1001, `${field} is required`);
      }
    }
    if (body.method !== 'card' || typeof body.amount !== 'number' || body.amount <= 0) {
      return this.error(res, 400, 1001, 'amount must be greater than 0');
    }
    // Meses sin intereses (payment_plan.payments): 3, 6, 9, 12 or 18, and only on credit cards.
    if (body.payment_plan !== undefined) {
      const payments = (body.payment_plan as { payments?: unknown } | null)?.payments;
      if (![3, 6, 9, 12, 18].includes(Number(payments))) {
        return this.error(res, 400, 1001, 'payment_plan.payments must be 3, 6, 9, 12 or 18');
      }
    }
    const forced = this.nextChargeErrors.shift();
    if (forced) return this.error(res, forced.http, forced.code, forced.description, forced.category);
    const orderId = typeof body.order_id === 'string' ? body.order_id : null;
    if (orderId && this.collideAmount !== null) {
      this.addForeignCharge(orderId, this.collideAmount);
      this.collideAmount = null;
    }
    if (orderId && [...this.charges.values()].some((t) => t.order_id === orderId)) {
      return this.error(res, 409, 1006, 'The orderId already exists');
    }
    // Openpay sends redirect_url only with 3-D Secure; a redirect_url without it is a request of ours gone wrong.
    if (body.redirect_url !== undefined && body.use_3d_secure !== true) {
      return this.error(res, 400, 1001, 'redirect_url is only allowed with use_3d_secure');
    }
    const token = this.tokens.get(String(body.source_id));
    if (!token) return this.error(res, 404, 1005, 'The requested resource doesn’t exist');
    // Meses sin intereses on a debit card: refused as an operation this card does not allow (decision 048).
    if (body.payment_plan !== undefined && cardTypeOf(token.cardNumber) === 'debit') {
      return this.error(res, 412, 3006, 'The operation is not allowed for this card (payment_plan)');
    }
    // A token is single use, except that the token of a 3005 (anti-fraud) decline may be used for the
    // 3-D Secure charge (Openpay's 3-D Secure guide: "Token de cargo previo").
    if (body.use_3d_secure === true || declines[token.cardNumber]?.code !== 3005) {
      this.tokens.delete(String(body.source_id));
    }

    const now = new Date().toISOString();
    const id = `tr${randomBytes(9).toString('hex')}`;
    const t: Txn = {
      id,
      authorization: null,
      operation_type: 'in',
      method: 'card',
      transaction_type: 'charge',
      status: 'in_progress',
      conciliated: false,
      creation_date: now,
      operation_date: now,
      description: String(body.description),
      error_message: null,
      order_id: orderId,
      amount: body.amount,
      currency: String(body.currency ?? 'MXN'),
      customer: body.customer ?? null,
      ...(body.payment_plan !== undefined ? { payment_plan: body.payment_plan as { payments: number } } : {}),
      card: {
        card_number: `${token.cardNumber.slice(0, 6)}XXXXXX${token.cardNumber.slice(-4)}`,
        holder_name: token.holderName,
        brand: token.cardNumber.startsWith('5') ? 'mastercard' : 'visa',
        type: cardTypeOf(token.cardNumber),
      },
    };
    this.charges.set(id, t);
    const decline = body.use_3d_secure === true ? undefined : declines[token.cardNumber];
    if (decline) {
      t.status = 'failed';
      t.error_code = decline.code;
      t.error_message = decline.description;
      return this.error(res, 402, decline.code, decline.description, 'gateway');
    }
    if (body.use_3d_secure === true) {
      t.status = 'charge_pending';
      t.redirect_url = String(body.redirect_url ?? '');
      t.payment_method = {
        type: 'redirect',
        url: `${this.url}/v1/${this.merchantId}/charges/${id}/redirect/`,
      };
    } else {
      t.status = 'completed';
      t.authorization = String(100000 + this.charges.size);
    }
    const delay = this.nextChargeDelayMs;
    this.nextChargeDelayMs = 0;
    if (this.failAfterCharge > 0) {
      this.failNext(...Array.from({ length: this.failAfterCharge }, () => 503));
      this.failAfterCharge = 0;
    }
    if (delay) await new Promise((r) => setTimeout(r, delay));
    if (!res.destroyed) this.send(res, 200, t);
  }
}
