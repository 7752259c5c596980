-- 1. Who asked for a cancellation and why, stored when the order is claimed (src/server/orders/cancellation.ts),
--    so the sweeper that finishes a cancellation interrupted between the refund and the commit records the
--    right reason and, for staff, the audit row.
ALTER TABLE "orders" ADD COLUMN "cancel_request" jsonb;--> statement-breakpoint
-- Claims in flight while this migration runs: before it, only a shopper could claim a 'paid' order without
-- staff (staff claims leave no trace of the reason), so a 'paid' claim is the shopper's, a 'preparing' one staff's.
UPDATE "orders" SET "cancel_request" = CASE WHEN "status" = 'paid'
    THEN '{"by":"shopper","reason":"Cancelado por el cliente","actor":null}'::jsonb
    ELSE '{"by":"staff","reason":"Cancelado por el personal","actor":null}'::jsonb END
  WHERE "status" IN ('paid', 'preparing') AND "cancelled_at" IS NOT NULL;--> statement-breakpoint
-- 2. The Idempotency-Key store keeps the checkout's answer (a domain result), not an HTTP status and body:
--    the route maps it to HTTP on the first answer and on every replay alike (src/server/checkout/routes.ts).
ALTER TABLE "idempotency_keys" ADD COLUMN "answer" jsonb;--> statement-breakpoint
UPDATE "idempotency_keys" SET "answer" = CASE "response_status"
    WHEN 201 THEN jsonb_build_object('kind', 'paid', 'number', "response_body"->'number')
    WHEN 200 THEN jsonb_build_object('kind', 'redirect', 'number', "response_body"->'number',
      'redirectUrl', "response_body"->'redirectUrl')
    WHEN 402 THEN jsonb_build_object('kind', 'failed', 'number', "order_number",
      'message', "response_body"->'error'->'message', 'errorCode', null)
    ELSE jsonb_build_object('kind', 'refused', 'code', "response_body"->'error'->'code',
      'message', "response_body"->'error'->'message')
  END
  WHERE "state" = 'done' AND "response_status" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "idempotency_keys" DROP COLUMN "response_status";--> statement-breakpoint
ALTER TABLE "idempotency_keys" DROP COLUMN "response_body";
