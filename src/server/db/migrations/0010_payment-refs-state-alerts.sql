-- Issue 14 (payments) and 23 (stock held hostage), decision 014.
-- payments.order_ref: the order_id sent to Openpay ('1001-k3x9q2m7'), unique across databases on one merchant;
-- payments.method / card_type: how the order was paid (CFDI FormaPago); orders.payment_state: where the money
-- stands after a refund or chargeback; payment_alerts: what staff must look at.
CREATE TABLE "payment_alerts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_number" integer NOT NULL,
	"kind" text NOT NULL,
	"message" text NOT NULL,
	"charge_id" text,
	"dedupe_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seen_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_state" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "order_ref" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "method" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "card_type" text;--> statement-breakpoint
ALTER TABLE "payment_alerts" ADD CONSTRAINT "payment_alerts_order_number_orders_number_fk" FOREIGN KEY ("order_number") REFERENCES "public"."orders"("number") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_alerts_dedupe_idx" ON "payment_alerts" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "payment_alerts_order_idx" ON "payment_alerts" USING btree ("order_number");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_order_ref_idx" ON "payments" USING btree ("order_ref");;--> statement-breakpoint
-- Orders paid before this migration: their money is where the order says.
UPDATE "orders" SET "payment_state" = 'paid' WHERE "status" IN ('paid', 'preparing', 'shipped', 'delivered');--> statement-breakpoint
UPDATE "orders" SET "payment_state" = 'refunded' WHERE "status" = 'cancelled' AND "paid_at" IS NOT NULL;--> statement-breakpoint
UPDATE "payments" SET "method" = 'card' WHERE "status" IN ('completed', 'refunded');