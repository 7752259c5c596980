import { randomBytes } from 'node:crypto';
import { and, eq, gt, gte, inArray, isNull, or, sql } from 'drizzle-orm';
import { checkClabe, clabeBank, clabeCheckDigit } from '../../shared/clabe.ts';
import type { Db } from '../db/client.ts';
import { type SandboxRefund, sandboxCharges, sandboxPayouts, sandboxTokens } from '../db/schema.ts';
import {
  type Charge,
  type ChargeRefund,
  type ChargeStatus,
  type CreateChargeInput,
  type CreatePayoutInput,
  type DelayedChargeInput,
  DUPLICATE_ORDER_ID,
  GatewayError,
  INSUFFICIENT_BALANCE,
  NOT_REFUNDABLE,
  OPERATION_NOT_ALLOWED,
  type PaymentGateway,
  type Payout,
  type PayoutStatus,
  type PayTo,
} from './gateway.ts';

/**
 * The offline payment simulator (PAYMENT_GATEWAY=sandbox, the default): Openpay's shapes and
 * semantics without the network. Tokens and charges live in the database, so several instances
 * behind a load balancer agree. Test cards (README), the numbers of Openpay's sandbox test-card page
 * (openpay.mx/docs/testing.html) — what each one's source is, decision 024:
 * - 4111111111111111, 4242424242424242, 5555555555554444 approve: Openpay's SDK integration tests charge them
 *   against the sandbox and expect them approved (open-pay/openpay-java, MerchantCardChargesTest);
 * - 4000000000000119 → 3004 'robada': named with that result from the testing page in open-pay/openpay-woocommerce#17;
 * - 4222222222222220 (3001), 4000000000000069 (3002), 4444444444444448 (3003), 4000000000000044 (3005,
 *   anti-fraud): the same page's other rows as the project's reference notes record them; the page itself is
 *   not in the searchable copies, so these four are unconfirmed there (decision 024).
 * With use_3d_secure every card goes to the bank's page (Openpay's sandbox sends failing test cards to its 3-D
 * Secure simulator instead of declining them: open-pay/openpay-php#32), as below.
 */
export const SANDBOX_CARDS: Record<
  string,
  { outcome: 'approve' | '3ds' | number; label: string; type?: 'credit' | 'debit' }
> = {
  '4111111111111111': { outcome: 'approve', label: 'Aprobada (crédito)', type: 'credit' },
  '4242424242424242': { outcome: 'approve', label: 'Aprobada (crédito)', type: 'credit' },
  // Debit cards: meses sin intereses are refused with them (decision 048).
  '5555555555554444': { outcome: 'approve', label: 'Aprobada (Mastercard de débito)', type: 'debit' },
  '4000000000000077': { outcome: 'approve', label: 'Aprobada (Visa de débito)', type: 'debit' },
  '4222222222222220': { outcome: 3001, label: 'Declinada' },
  // Not on Openpay's page (it is Stripe's declined card); kept because earlier journeys and scripts use it.
  '4000000000000002': { outcome: 3001, label: 'Declinada' },
  '4000000000000069': { outcome: 3002, label: 'Expirada' },
  '4444444444444448': { outcome: 3003, label: 'Fondos insuficientes' },
  '4000000000000119': { outcome: 3004, label: 'Reportada como robada' },
  // The anti-fraud card: 3005 first; the shop retries with 3-D Secure (the bank page).
  '4000000000000044': { outcome: 3005, label: 'Antifraude: requiere 3-D Secure' },
};

/** Openpay's own descriptions for the card decisions the simulator makes. */
const DECLINE_DESCRIPTIONS: Record<number, string> = {
  3001: 'The card was declined',
  3002: 'The card has expired',
  3003: 'The card doesn’t have sufficient funds',
  3004: 'The card was reported as stolen',
  3005: 'Fraud risk detected by anti-fraud system',
};

const TOKEN_TTL_MS = 15 * 60_000;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

function openpayId(prefix: string, length: number): string {
  const bytes = randomBytes(length);
  let id = prefix;
  for (const b of bytes) id += ALPHABET[b % ALPHABET.length];
  return id;
}

export function luhnValid(number: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = number.length - 1; i >= 0; i--) {
    let d = number.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

export type TokenInput = {
  holder_name: string;
  card_number: string;
  expiration_month: string;
  expiration_year: string;
  cvv2: string;
};

const requestError = (http: number, code: number, description: string) =>
  new GatewayError('request', code, description, http, randomBytes(8).toString('hex'));

/** Openpay's checks at tokenization: 1001 missing fields, 2004 Luhn, 2005 expired, 2006/2009 CVV. */
export function checkCard(input: TokenInput, now = new Date()): void {
  const number = input.card_number.replace(/[\s-]/g, '');
  if (!input.holder_name.trim()) throw requestError(400, 1001, 'Falta el nombre del titular');
  if (!/^\d{13,16}$/.test(number) || !luhnValid(number)) {
    throw requestError(422, 2004, 'El número de tarjeta no es válido');
  }
  const month = Number(input.expiration_month);
  const year = Number(input.expiration_year);
  if (
    !/^\d{1,2}$/.test(input.expiration_month) ||
    !/^\d{2}$/.test(input.expiration_year) ||
    month < 1 ||
    month > 12
  ) {
    throw requestError(400, 1001, 'La fecha de expiración no es válida');
  }
  // Valid through the last day of the expiration month.
  if (new Date(Date.UTC(2000 + year, month, 1)) <= now) {
    throw requestError(400, 2005, 'La fecha de expiración de la tarjeta es anterior a la fecha actual');
  }
  if (!input.cvv2)
    throw requestError(400, 2006, 'El código de seguridad de la tarjeta (CVV2) no fue proporcionado');
  if (!/^\d{3,4}$/.test(input.cvv2)) {
    throw requestError(412, 2009, 'El código de seguridad de la tarjeta (CVV2) no es válido');
  }
}

type ChargeRow = typeof sandboxCharges.$inferSelect;

/**
 * Openpay's card.type of a simulated card, from the masked number the token and the charge keep: the test card
 * with that mask says; any other Mastercard stands for a debit card, any other Visa for a credit card.
 */
export function sandboxCardType(maskedNumber: string): 'credit' | 'debit' {
  const known = Object.entries(SANDBOX_CARDS).find(
    ([number]) => `${number.slice(0, 6)}XXXXXX${number.slice(-4)}` === maskedNumber,
  )?.[1].type;
  return known ?? (maskedNumber.startsWith('5') ? 'debit' : 'credit');
}

function payToOf(pm: Record<string, string> | null): PayTo | null {
  if (pm?.type === 'bank_transfer') {
    return { type: 'bank_transfer', bank: pm.bank ?? '', clabe: pm.clabe ?? '', name: pm.name ?? '' };
  }
  if (pm?.type === 'store')
    return { type: 'store', reference: pm.reference ?? '', barcodeUrl: pm.barcode_url ?? null };
  return null;
}

function toCharge(row: ChargeRow): Charge {
  const card = row.method === 'card';
  return {
    id: row.id,
    status: row.status as ChargeStatus,
    amountCents: row.amountCents,
    currency: 'MXN',
    refundedCents: row.refundedCents,
    method: card ? 'card' : row.method === 'bank_account' ? 'spei' : 'cash',
    cardType: card ? sandboxCardType(row.maskedNumber) : null,
    orderId: row.orderId,
    errorCode: row.errorCode,
    errorMessage: row.errorMessage,
    redirectUrl: row.status === 'charge_pending' ? `/api/payments/sandbox/3ds/${row.id}` : null,
    payTo: payToOf(row.paymentMethod),
    dueDate: row.dueDate?.toISOString() ?? null,
    lastRefund: row.refunds.length > 0 ? refundOf(row.refunds[row.refunds.length - 1]!) : null,
    refunds: row.refunds.map(refundOf),
  };
}

function refundOf(r: SandboxRefund): ChargeRefund {
  return {
    id: r.id,
    amountCents: r.amount_cents,
    status: 'completed',
    description: r.description,
    createdAt: r.created_at,
  };
}

/**
 * The simulator's CLABE whose payouts always fail (after starting in_progress, like a transfer the receiving
 * bank returns): a valid BBVA CLABE, account all nines. Documented in the README's test data.
 */
export const SANDBOX_FAILING_CLABE = '012180999999999995';
/** What the failed payout reports: the SPEI return reason 01 the receiving banks use. */
const FAILED_PAYOUT_MESSAGE = 'Cuenta inexistente';

/**
 * The refusals of Openpay's 'Devolver un cargo' the simulator gives. Openpay's documentation names no specific
 * error for them; they are its documented 1003, 422 Unprocessable Entity (decision 046). The replica
 * (tests/server/replicas/openpay.ts) answers the same words.
 */
export const REFUND_REFUSALS = {
  notCard: 'Only card charges can be refunded',
  notCompleted: 'The charge can not be refunded',
  tooMuch: 'The refund amount exceeds the amount left to refund',
} as const;

type PayoutRow = typeof sandboxPayouts.$inferSelect;

/** Openpay answers a payout's CLABE masked: first 3 and last 5 digits. */
const maskClabe = (clabe: string) => `${clabe.slice(0, 3)}XXXXXXXXXX${clabe.slice(-5)}`;

function toPayout(row: PayoutRow): Payout {
  return {
    id: row.id,
    status: row.status as PayoutStatus,
    amountCents: row.amountCents,
    clabe: maskClabe(row.clabe),
    holderName: row.holderName,
    bankName: clabeBank(row.clabe),
    orderId: row.orderId,
    errorCode: row.errorCode,
    errorMessage: row.errorMessage,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A CLABE of STP (bank 646, plaza 180), as Openpay gives for SPEI charges, with a valid control digit. */
export function sandboxClabe(): string {
  const digits = `646180${Array.from(randomBytes(11), (b) => String(b % 10)).join('')}`;
  return `${digits}${clabeCheckDigit(digits)}`;
}

export class SandboxGateway implements PaymentGateway {
  readonly name = 'sandbox' as const;
  constructor(private readonly db: Db) {}

  /** What Openpay.js does in the browser: card data in, a single-use token out. */
  async createToken(
    input: TokenInput,
  ): Promise<{ id: string; card: { card_number: string; brand: string; type: 'credit' | 'debit' } }> {
    checkCard(input);
    const number = input.card_number.replace(/[\s-]/g, '');
    const outcome = SANDBOX_CARDS[number]?.outcome ?? 3001;
    const id = openpayId('k', 19);
    const maskedNumber = `${number.slice(0, 6)}XXXXXX${number.slice(-4)}`;
    const brand = number.startsWith('5') ? 'mastercard' : 'visa';
    await this.db.insert(sandboxTokens).values({
      id,
      holderName: input.holder_name.trim().slice(0, 100),
      brand,
      maskedNumber,
      outcome: String(outcome),
      expiresAt: new Date(Date.now() + TOKEN_TTL_MS),
    });
    return { id, card: { card_number: maskedNumber, brand, type: sandboxCardType(maskedNumber) } };
  }

  async cardTypeOfToken(token: string): Promise<'credit' | 'debit' | null> {
    const [row] = await this.db
      .select({ maskedNumber: sandboxTokens.maskedNumber })
      .from(sandboxTokens)
      .where(eq(sandboxTokens.id, token));
    return row ? sandboxCardType(row.maskedNumber) : null;
  }

  async createCharge(input: CreateChargeInput): Promise<Charge> {
    if (!(input.amountCents > 0)) throw requestError(400, 1001, 'amount must be greater than 0');
    const existing = await this.db
      .select({ id: sandboxCharges.id })
      .from(sandboxCharges)
      .where(eq(sandboxCharges.orderId, input.orderId));
    if (existing.length > 0) throw requestError(409, 1006, 'The orderId already exists');
    // As Openpay: meses sin intereses only on credit cards; the token stays unused.
    if (input.msiMonths && input.msiMonths > 1 && (await this.cardTypeOfToken(input.token)) === 'debit') {
      throw requestError(
        412,
        OPERATION_NOT_ALLOWED,
        'The operation is not allowed for this card (payment_plan)',
      );
    }
    // A token is single use: whoever marks it first charges it. As at Openpay, the token of a charge refused by
    // the anti-fraud system (3005) may be used once more, for the 3-D Secure charge.
    const [token] = await this.db
      .update(sandboxTokens)
      .set({ usedAt: new Date(), outcome: input.use3dSecure ? '3ds' : sql`${sandboxTokens.outcome}` })
      .where(
        and(
          eq(sandboxTokens.id, input.token),
          input.use3dSecure
            ? or(isNull(sandboxTokens.usedAt), eq(sandboxTokens.outcome, '3005'))
            : isNull(sandboxTokens.usedAt),
          gt(sandboxTokens.expiresAt, new Date()),
        ),
      )
      .returning();
    if (!token) throw requestError(404, 1005, 'The requested resource doesn’t exist');

    const outcome =
      token.outcome === 'approve' || token.outcome === '3ds' ? token.outcome : Number(token.outcome);
    const declined = typeof outcome === 'number';
    const status: ChargeStatus = declined ? 'failed' : outcome === '3ds' ? 'charge_pending' : 'completed';
    const [row] = await this.db
      .insert(sandboxCharges)
      .values({
        id: openpayId('tr', 18),
        orderId: input.orderId,
        tokenId: token.id,
        amountCents: input.amountCents,
        status,
        errorCode: declined ? outcome : null,
        errorMessage: declined ? (DECLINE_DESCRIPTIONS[outcome] ?? 'The card was declined') : null,
        description: input.description.slice(0, 250),
        redirectUrl: outcome === '3ds' ? input.redirectUrl : null,
        maskedNumber: token.maskedNumber,
      })
      .onConflictDoNothing({ target: sandboxCharges.orderId })
      .returning();
    if (!row) throw requestError(409, 1006, 'The orderId already exists');
    if (declined) {
      throw new GatewayError(
        'gateway',
        outcome,
        DECLINE_DESCRIPTIONS[outcome] ?? 'The card was declined',
        402,
        randomBytes(8).toString('hex'),
      );
    }
    return toCharge(row);
  }

  /**
   * What Openpay answers a bank_account or store charge: status in_progress with the payment_method — for SPEI
   * a CLABE of STP and the reference ('name') the transfer carries; for a store a Paynet reference and the
   * barcode's URL (here the simulator's own Code 128 image).
   */
  async createDelayedCharge(input: DelayedChargeInput): Promise<Charge> {
    if (!(input.amountCents > 0)) throw requestError(400, 1001, 'amount must be greater than 0');
    if (!(input.dueDate.getTime() > Date.now()))
      throw requestError(400, 1001, 'due_date must be in the future');
    const id = openpayId('tr', 18);
    const paymentMethod: Record<string, string> =
      input.method === 'spei'
        ? {
            type: 'bank_transfer',
            bank: 'STP',
            clabe: sandboxClabe(),
            name: Array.from(randomBytes(7), (b) => String(b % 10)).join(''),
          }
        : (() => {
            const reference = `000020${id.toUpperCase()}${Array.from(randomBytes(7), (b) => String(b % 10)).join('')}`;
            return {
              type: 'store',
              reference,
              barcode_url: `/api/payments/sandbox/barcode/${reference}`,
            };
          })();
    const [row] = await this.db
      .insert(sandboxCharges)
      .values({
        id,
        orderId: input.orderId,
        tokenId: '',
        amountCents: input.amountCents,
        status: 'in_progress',
        description: input.description.slice(0, 250),
        maskedNumber: '',
        method: input.method === 'spei' ? 'bank_account' : 'store',
        dueDate: input.dueDate,
        paymentMethod,
      })
      .onConflictDoNothing({ target: sandboxCharges.orderId })
      .returning();
    if (!row) throw requestError(409, 1006, 'The orderId already exists');
    return toCharge(row);
  }

  /**
   * 'Simular pago recibido' (development only): the buyer paid the SPEI transfer or at the store. As at Openpay,
   * a charge past its due_date can no longer be paid unless `late` (the simulator's way to test a payment that
   * arrives after the shop released the order). Answers the charge, or null when there is nothing to pay.
   */
  async simulatePayment(chargeId: string, options: { late?: boolean } = {}): Promise<Charge | null> {
    const [row] = await this.db
      .update(sandboxCharges)
      .set({ status: 'completed', updatedAt: new Date() })
      .where(
        and(
          eq(sandboxCharges.id, chargeId),
          options.late
            ? inArray(sandboxCharges.status, ['in_progress', 'cancelled'])
            : eq(sandboxCharges.status, 'in_progress'),
          sql`${sandboxCharges.method} <> 'card'`,
          options.late
            ? undefined
            : or(isNull(sandboxCharges.dueDate), gt(sandboxCharges.dueDate, new Date())),
        ),
      )
      .returning();
    return row ? toCharge(row) : null;
  }

  /** 'Simular vencimiento': the due date passes unpaid; Openpay cancels the charge. */
  async simulateExpiry(chargeId: string): Promise<Charge | null> {
    const [row] = await this.db
      .update(sandboxCharges)
      .set({ status: 'cancelled', dueDate: new Date(), updatedAt: new Date() })
      .where(
        and(
          eq(sandboxCharges.id, chargeId),
          eq(sandboxCharges.status, 'in_progress'),
          sql`${sandboxCharges.method} <> 'card'`,
        ),
      )
      .returning();
    return row ? toCharge(row) : null;
  }

  /** The simulator's delayed charges still awaiting payment (the development page). */
  async awaitingCharges(): Promise<Charge[]> {
    const rows = await this.db
      .select()
      .from(sandboxCharges)
      .where(and(eq(sandboxCharges.status, 'in_progress'), sql`${sandboxCharges.method} <> 'card'`))
      .orderBy(sql`${sandboxCharges.createdAt} desc`)
      .limit(50);
    return rows.map(toCharge);
  }

  async getCharge(chargeId: string): Promise<Charge> {
    const [row] = await this.db.select().from(sandboxCharges).where(eq(sandboxCharges.id, chargeId));
    if (!row) throw requestError(404, 1005, 'The requested resource doesn’t exist');
    return toCharge(row);
  }

  async findChargeByOrderId(orderId: string): Promise<Charge | null> {
    const [row] = await this.db.select().from(sandboxCharges).where(eq(sandboxCharges.orderId, orderId));
    return row ? toCharge(row) : null;
  }

  /**
   * Openpay's 'Devolver un cargo': card charges only, completed, for what is left or less; several partial
   * refunds add up, and the charge is 'refunded' once nothing is left. One conditional UPDATE, so two refunds
   * at once can never return more than the charge.
   */
  async refund(chargeId: string, options: { description: string; amountCents?: number }): Promise<Charge> {
    const charge = await this.getCharge(chargeId); // 1005 when it does not exist
    if (charge.method !== 'card') throw requestError(422, NOT_REFUNDABLE, REFUND_REFUSALS.notCard);
    if (charge.status !== 'completed') throw requestError(422, NOT_REFUNDABLE, REFUND_REFUSALS.notCompleted);
    const left = charge.amountCents - charge.refundedCents;
    const amount = options.amountCents ?? left;
    if (!Number.isSafeInteger(amount) || amount <= 0) {
      throw requestError(400, 1001, 'amount must be greater than 0');
    }
    if (amount > left) throw requestError(422, NOT_REFUNDABLE, REFUND_REFUSALS.tooMuch);
    const refund: SandboxRefund = {
      id: openpayId('tr', 18),
      amount_cents: amount,
      description: options.description.slice(0, 250),
      created_at: new Date().toISOString(),
    };
    const [row] = await this.db
      .update(sandboxCharges)
      .set({
        refundedCents: sql`${sandboxCharges.refundedCents} + ${amount}`,
        status: sql`case when ${sandboxCharges.refundedCents} + ${amount} >= ${sandboxCharges.amountCents}
          then 'refunded' else ${sandboxCharges.status} end`,
        refunds: sql`${sandboxCharges.refunds} || ${JSON.stringify([refund])}::jsonb`,
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(sandboxCharges.id, chargeId),
          eq(sandboxCharges.method, 'card'),
          eq(sandboxCharges.status, 'completed'),
          sql`${sandboxCharges.refundedCents} + ${amount} <= ${sandboxCharges.amountCents}`,
        ),
      )
      .returning();
    // Another refund got there first and left less than this one asks.
    if (!row) throw requestError(422, NOT_REFUNDABLE, REFUND_REFUSALS.tooMuch);
    return toCharge(row);
  }

  /**
   * Openpay's 'Pago a cuenta bancaria': checked like Openpay (amount, CLABE, holder, order_id unique among all
   * transactions, the merchant's balance), then in_progress; a later read executes it (`settlePayout`).
   */
  async createPayout(input: CreatePayoutInput): Promise<Payout> {
    if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) {
      throw requestError(400, 1001, 'amount must be greater than 0');
    }
    const clabe = checkClabe(input.clabe);
    if (!clabe.ok || clabe.clabe !== input.clabe) {
      throw requestError(400, 1001, 'bank_account.clabe is not a valid CLABE');
    }
    if (!input.holderName.trim()) throw requestError(400, 1001, 'bank_account.holder_name is required');
    if (!input.description.trim()) throw requestError(400, 1001, 'description is required');
    const [charge] = await this.db
      .select({ id: sandboxCharges.id })
      .from(sandboxCharges)
      .where(eq(sandboxCharges.orderId, input.orderId));
    if (charge) throw requestError(409, DUPLICATE_ORDER_ID, 'The orderId already exists');
    if ((await this.balanceCents()) < input.amountCents) {
      throw requestError(412, INSUFFICIENT_BALANCE, 'The Openpay account has not enough funds');
    }
    const [row] = await this.db
      .insert(sandboxPayouts)
      .values({
        id: openpayId('tr', 18),
        orderId: input.orderId,
        amountCents: input.amountCents,
        clabe: input.clabe,
        holderName: input.holderName.trim().slice(0, 100),
        description: input.description.slice(0, 250),
        status: 'in_progress',
      })
      .onConflictDoNothing({ target: sandboxPayouts.orderId })
      .returning();
    if (!row) throw requestError(409, DUPLICATE_ORDER_ID, 'The orderId already exists');
    return toPayout(row);
  }

  async getPayout(payoutId: string): Promise<Payout> {
    const row = await this.settlePayout(payoutId);
    if (!row) throw requestError(404, 1005, 'The requested resource doesn’t exist');
    return toPayout(row);
  }

  async findPayoutByOrderId(orderId: string, createdSince: Date): Promise<Payout | null> {
    const [found] = await this.db
      .select({ id: sandboxPayouts.id })
      .from(sandboxPayouts)
      .where(and(eq(sandboxPayouts.orderId, orderId), gte(sandboxPayouts.createdAt, createdSince)));
    return found ? this.getPayout(found.id) : null;
  }

  /**
   * The next business day at Openpay, here the next read: an in_progress payout is executed — completed, or
   * failed for SANDBOX_FAILING_CLABE. Conditional on in_progress, so instances reading at once agree.
   */
  private async settlePayout(payoutId: string): Promise<PayoutRow | undefined> {
    const fails = sql`${sandboxPayouts.clabe} = ${SANDBOX_FAILING_CLABE}`;
    const [settled] = await this.db
      .update(sandboxPayouts)
      .set({
        status: sql`case when ${fails} then 'failed' else 'completed' end`,
        errorMessage: sql`case when ${fails} then ${FAILED_PAYOUT_MESSAGE} else null end`,
        updatedAt: new Date(),
      })
      .where(and(eq(sandboxPayouts.id, payoutId), eq(sandboxPayouts.status, 'in_progress')))
      .returning();
    if (settled) return settled;
    const [row] = await this.db.select().from(sandboxPayouts).where(eq(sandboxPayouts.id, payoutId));
    return row;
  }

  /** The merchant's simulated balance: what charges brought in, less refunds and payouts not failed. */
  private async balanceCents(): Promise<number> {
    const { rows } = await this.db.execute<{ balance: string | number }>(sql`
      select
        (select coalesce(sum(${sandboxCharges.amountCents} - ${sandboxCharges.refundedCents}), 0)
           from ${sandboxCharges} where ${sandboxCharges.status} in ('completed', 'refunded'))
        - (select coalesce(sum(${sandboxPayouts.amountCents}), 0)
           from ${sandboxPayouts} where ${sandboxPayouts.status} in ('in_progress', 'completed'))
        as balance`);
    return Number(rows[0]?.balance ?? 0);
  }

  /** The simulated bank page ('Autorizar' / 'Rechazar'); answers where to send the shopper. */
  async complete3ds(chargeId: string, approve: boolean): Promise<string | null> {
    const [row] = await this.db
      .update(sandboxCharges)
      .set(
        approve
          ? { status: 'completed', updatedAt: new Date() }
          : {
              status: 'failed',
              errorCode: 3001,
              errorMessage: 'The card was declined',
              updatedAt: new Date(),
            },
      )
      .where(and(eq(sandboxCharges.id, chargeId), eq(sandboxCharges.status, 'charge_pending')))
      .returning();
    const current =
      row ?? (await this.db.select().from(sandboxCharges).where(eq(sandboxCharges.id, chargeId)))[0];
    if (!current?.redirectUrl) return null;
    const url = new URL(current.redirectUrl, 'http://placeholder');
    url.searchParams.set('id', current.id);
    return current.redirectUrl.startsWith('/') ? `${url.pathname}${url.search}` : url.toString();
  }

  async pendingCharge(
    chargeId: string,
  ): Promise<{ amountCents: number; description: string; maskedNumber: string } | null> {
    const [row] = await this.db.select().from(sandboxCharges).where(eq(sandboxCharges.id, chargeId));
    if (row?.status !== 'charge_pending') return null;
    return { amountCents: row.amountCents, description: row.description, maskedNumber: row.maskedNumber };
  }
}
