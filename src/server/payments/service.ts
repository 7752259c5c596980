import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { PaymentsConfig } from '../../shared/schemas/payments.ts';
import type { AppConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { ChargeReports } from './charge-reports.ts';
import { type Charge, GatewayError, GatewayUnavailableError, type PaymentGateway } from './gateway.ts';
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

/** Where the card form loads Openpay.js and openpay-data.js from (Openpay's current documentation). */
export const OPENPAY_SCRIPTS = [
  'https://js.openpay.mx/openpay.v1.min.js',
  'https://js.openpay.mx/openpay-data.v1.min.js',
] as const;

/**
 * The CSP additions Openpay.js and openpay-data.js need, only when Openpay is configured: the scripts' origin,
 * and the API host — Openpay.js posts the card there (connect-src), and openpay-data's anti-fraud device
 * fingerprint loads its own script, image and frame from it (script-src, img-src, frame-src). Nothing else.
 */
export function openpayCspOrigins(config: AppConfig): { script: string[]; api: string[] } {
  const openpay = config.payments.openpay;
  if (config.payments.gateway !== 'openpay' || !openpay) return { script: [], api: [] };
  const api = openpay.production ? 'https://api.openpay.mx' : 'https://sandbox-api.openpay.mx';
  const scripts = [...new Set(OPENPAY_SCRIPTS.map((u) => new URL(u).origin))];
  return { script: [...scripts, api], api: [api] };
}

/**
 * GET /api/payments/return?id=… (after 3-D Secure): the charge's result comes from the gateway, never
 * from the URL. Answers where to send the browser.
 */
export async function returnFrom3ds(
  gateway: PaymentGateway,
  reports: ChargeReports,
  request: FastifyRequest,
  chargeId: string | undefined,
): Promise<string> {
  const failed = '/?payment_failed=1';
  if (!chargeId || !/^[A-Za-z0-9_-]{1,64}$/.test(chargeId)) return failed;
  let charge: Charge;
  try {
    charge = await gateway.getCharge(chargeId);
  } catch (error) {
    if (error instanceof GatewayError) return failed;
    const number = await reports.orderOf(chargeId, null);
    return number ? `/resumen/${number}` : failed;
  }
  const number = await reports.orderOf(chargeId, charge.orderId);
  if (!number) return failed;
  return (await reports.settle(number, charge, request)) ? `/resumen/${number}` : failed;
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
export async function handleWebhook(
  gateway: PaymentGateway,
  reports: ChargeReports,
  request: FastifyRequest,
  event: WebhookEvent,
): Promise<boolean> {
  if (event.type === 'verification') {
    // The code must be typed into Openpay's dashboard to verify the webhook.
    request.log.warn(
      { verification_code: event.verification_code },
      'webhook de Openpay: código de verificación',
    );
    return true;
  }
  const chargeId = event.transaction?.id;
  // Charges and chargebacks (charge.succeeded/failed/cancelled/refunded/rescored.to.decline,
  // chargeback.created/accepted/rejected): whatever the type says, the charge as Openpay answers it decides.
  if (!(event.type.startsWith('charge.') || event.type.startsWith('chargeback.')) || !chargeId) return true;
  let charge: Charge;
  try {
    charge = await gateway.getCharge(chargeId);
  } catch (error) {
    if (error instanceof GatewayUnavailableError) return false;
    request.log.warn({ charge: chargeId }, 'webhook de un cargo que la pasarela no reconoce');
    return true;
  }
  const number = await reports.orderOf(charge.id, charge.orderId);
  if (!number) return true;
  await reports.settle(number, charge, request);
  return true;
}
