import { timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { PaymentsConfig } from '../../shared/schemas/payments.ts';
import type { AppConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { applyCharge, type CheckoutContext } from '../orders/settle.ts';
import { rows } from '../orders/sql.ts';
import { GatewayError, GatewayUnavailableError, type PaymentGateway } from './gateway.ts';
import { OpenpayGateway } from './openpay.ts';
import { SandboxGateway } from './sandbox.ts';

export function createPaymentGateway(config: AppConfig, db: Db): PaymentGateway {
  const openpay = config.payments.openpay;
  if (config.payments.gateway === 'openpay' && openpay) {
    return new OpenpayGateway({
      apiUrl: openpay.apiUrl,
      merchantId: openpay.merchantId,
      privateKey: openpay.privateKey,
    });
  }
  return new SandboxGateway(db);
}

/** What the browser may know: the gateway, and for Openpay the merchant id and the PUBLIC key. */
export function publicPaymentsConfig(config: AppConfig): PaymentsConfig {
  const openpay = config.payments.openpay;
  if (config.payments.gateway === 'openpay' && openpay) {
    return {
      gateway: 'openpay',
      merchantId: openpay.merchantId,
      publicKey: openpay.publicKey,
      sandboxMode: !openpay.production,
    };
  }
  return { gateway: 'sandbox' };
}

/** The CSP additions Openpay.js and openpay-data.js need: exactly their origins, only when configured. */
export function openpayCspOrigins(config: AppConfig): { script: string[]; api: string[] } {
  const openpay = config.payments.openpay;
  if (config.payments.gateway !== 'openpay' || !openpay) return { script: [], api: [] };
  return {
    script: ['https://js.openpay.mx'],
    api: [openpay.production ? 'https://api.openpay.mx' : 'https://sandbox-api.openpay.mx'],
  };
}

async function orderOfCharge(db: Db, chargeId: string, orderId: string | null): Promise<number | null> {
  const [byCharge] = await rows<{ order_number: number }>(
    db,
    sql`select order_number from payments where charge_id = ${chargeId} order by id desc limit 1`,
  );
  if (byCharge) return Number(byCharge.order_number);
  if (orderId && /^\d{1,9}$/.test(orderId)) {
    const [byOrder] = await rows<{ number: number }>(
      db,
      sql`select number from orders where number = ${Number(orderId)}`,
    );
    if (byOrder) return Number(byOrder.number);
  }
  return null;
}

/**
 * GET /api/payments/return?id=… (after 3-D Secure): the charge's result comes from the gateway, never
 * from the URL. Answers where to send the browser.
 */
export async function returnFrom3ds(ctx: CheckoutContext, chargeId: string | undefined): Promise<string> {
  const failed = '/?payment_failed=1';
  if (!chargeId || !/^[A-Za-z0-9_-]{1,64}$/.test(chargeId)) return failed;
  let charge: Awaited<ReturnType<PaymentGateway['getCharge']>>;
  try {
    charge = await ctx.gateway.getCharge(chargeId);
  } catch (error) {
    if (error instanceof GatewayError) return failed;
    const number = await orderOfCharge(ctx.db, chargeId, null);
    return number ? `/resumen/${number}` : failed;
  }
  const number = await orderOfCharge(ctx.db, chargeId, charge.orderId);
  if (!number) return failed;
  const outcome = await applyCharge(ctx, number, charge);
  return outcome.kind === 'paid' ? `/resumen/${number}` : failed;
}

export function webhookAuthorized(config: AppConfig, authorization: string | undefined): boolean {
  const expected = config.payments.webhook;
  if (!expected || !authorization?.startsWith('Basic ')) return false;
  const given = Buffer.from(authorization.slice(6), 'base64');
  const wanted = Buffer.from(`${expected.user}:${expected.password}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

export type WebhookEvent = {
  type: string;
  verification_code?: string | undefined;
  transaction?: { id?: string | undefined; order_id?: string | null | undefined } | undefined;
};

/**
 * POST /api/payments/openpay/webhook. Openpay retries until it gets a 2xx, so deliveries repeat;
 * the payload is not signed, so the charge is fetched again and only the gateway's answer counts.
 * Returns false when the gateway could not be asked (answer 503 so Openpay retries).
 */
export async function handleWebhook(ctx: CheckoutContext, event: WebhookEvent): Promise<boolean> {
  if (event.type === 'verification') {
    // The code must be typed into Openpay's dashboard to verify the webhook.
    ctx.log.warn(
      { verification_code: event.verification_code },
      'webhook de Openpay: código de verificación',
    );
    return true;
  }
  const chargeId = event.transaction?.id;
  if (!event.type.startsWith('charge.') || !chargeId) return true;
  let charge: Awaited<ReturnType<PaymentGateway['getCharge']>>;
  try {
    charge = await ctx.gateway.getCharge(chargeId);
  } catch (error) {
    if (error instanceof GatewayUnavailableError) return false;
    ctx.log.warn({ charge: chargeId }, 'webhook de un cargo que la pasarela no reconoce');
    return true;
  }
  const number = await orderOfCharge(ctx.db, charge.id, charge.orderId);
  if (!number) return true;
  await applyCharge(ctx, number, charge);
  return true;
}
