-- 1. Money as 64-bit integers end to end (issue 22): an order above $21,474,836.47 overflowed the 32-bit columns.
--    Values stay within Number.MAX_SAFE_INTEGER (the checkout's limits, src/shared/limits.ts), so the driver maps them to numbers.
--    products.price_cents stays 32-bit: a unit price is capped at MAX_PRICE_CENTS ($10,000,000.00) and the catalogue-version
--    trigger depends on the column.
ALTER TABLE "invoices" ALTER COLUMN "subtotal_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "iva_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "total_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "order_lines" ALTER COLUMN "unit_price_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "subtotal_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "shipping_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "iva_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "total_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "amount_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "refunded_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "sandbox_charges" ALTER COLUMN "amount_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "sandbox_charges" ALTER COLUMN "refunded_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cancel_lease_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "orders_cancel_lease_idx" ON "orders" USING btree ("cancel_lease_until") WHERE "orders"."cancel_lease_until" is not null;--> statement-breakpoint
-- 2. The lease of a claimed cancellation (src/server/orders/cancellation.ts): claims in flight while this migration runs
--    keep the five minutes the sweeper used to wait.
UPDATE "orders" SET "cancel_lease_until" = "cancelled_at" + interval '5 minutes'
  WHERE "status" IN ('paid', 'preparing') AND "cancelled_at" IS NOT NULL;
