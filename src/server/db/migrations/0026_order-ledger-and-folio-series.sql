CREATE TABLE "cfdi_folio_series" (
	"series" text PRIMARY KEY NOT NULL,
	"last_folio" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cfdi_free_folios" (
	"series" text NOT NULL,
	"folio" integer NOT NULL,
	CONSTRAINT "cfdi_free_folios_series_folio_pk" PRIMARY KEY("series","folio")
);
--> statement-breakpoint
CREATE TABLE "order_ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_number" integer NOT NULL,
	"kind" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"method" text,
	"reference" text,
	"refund_id" bigint,
	"detail" jsonb,
	"actor" jsonb NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_ledger_amount" CHECK ("order_ledger"."amount_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "order_refunds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_number" integer NOT NULL,
	"route" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"state" text NOT NULL,
	"clabe" text,
	"holder_name" text,
	"provider_id" text,
	"provider_ref" text,
	"error_message" text,
	"reason" text NOT NULL,
	"actor" jsonb NOT NULL,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone,
	CONSTRAINT "order_refunds_amount" CHECK ("order_refunds"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "sandbox_payouts" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"clabe" text NOT NULL,
	"holder_name" text NOT NULL,
	"description" text NOT NULL,
	"status" text NOT NULL,
	"error_code" integer,
	"error_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_payouts_order_id_unique" UNIQUE("order_id")
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "serie" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "folio" integer;--> statement-breakpoint
ALTER TABLE "sandbox_charges" ADD COLUMN "refunds" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "order_ledger" ADD CONSTRAINT "order_ledger_order_number_orders_number_fk" FOREIGN KEY ("order_number") REFERENCES "public"."orders"("number") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_order_number_orders_number_fk" FOREIGN KEY ("order_number") REFERENCES "public"."orders"("number") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_ledger_order_idx" ON "order_ledger" USING btree ("order_number","id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_ledger_reference_idx" ON "order_ledger" USING btree ("order_number","kind","reference") WHERE "order_ledger"."reference" is not null;--> statement-breakpoint
CREATE INDEX "order_refunds_order_idx" ON "order_refunds" USING btree ("order_number");--> statement-breakpoint
CREATE INDEX "order_refunds_open_idx" ON "order_refunds" USING btree ("state","created_at") WHERE "order_refunds"."state" in ('owed', 'in_progress');--> statement-breakpoint
CREATE UNIQUE INDEX "order_refunds_provider_ref_idx" ON "order_refunds" USING btree ("provider_ref");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_serie_folio_idx" ON "invoices" USING btree ("serie","folio");--> statement-breakpoint
-- Decision 045: the ledger of orders paid before it existed. One 'charge' per completed (or since refunded) charge
-- of a paid order, and what payments.refunded_cents already recorded as a card refund (promised and done), so the
-- balances of old orders hold from the first start after the upgrade.
INSERT INTO "order_ledger" ("order_number", "kind", "amount_cents", "method", "reference", "actor", "reason")
SELECT p."order_number", 'charge', p."amount_cents", coalesce(p."method", 'card'), p."charge_id",
  '{"by":"system","userId":null,"label":"migración 0026"}'::jsonb, 'Cargo anterior al libro del pedido'
FROM "payments" p JOIN "orders" o ON o."number" = p."order_number"
WHERE p."charge_id" IS NOT NULL AND (o."paid_at" IS NOT NULL OR o."late_payment_at" IS NOT NULL)
  AND p."status" IN ('completed', 'refunded', 'chargeback_pending', 'chargeback_accepted', 'chargeback_adjustment');
--> statement-breakpoint
INSERT INTO "order_ledger" ("order_number", "kind", "amount_cents", "method", "reference", "actor", "reason")
SELECT p."order_number", k.kind, p."refunded_cents", 'card', 'migrated:' || p."id",
  '{"by":"system","userId":null,"label":"migración 0026"}'::jsonb, 'Reembolso anterior al libro del pedido'
FROM "payments" p JOIN "orders" o ON o."number" = p."order_number"
CROSS JOIN (VALUES ('refund_due'), ('refund')) AS k(kind)
WHERE p."charge_id" IS NOT NULL AND p."refunded_cents" > 0 AND o."paid_at" IS NOT NULL;
--> statement-breakpoint
INSERT INTO "order_ledger" ("order_number", "kind", "amount_cents", "reference", "actor", "reason")
SELECT i."order_number", CASE WHEN i."kind" = 'E' THEN 'credit_note' ELSE 'invoice' END, i."total_cents", i."uuid",
  '{"by":"system","userId":null,"label":"migración 0026"}'::jsonb, 'CFDI anterior al libro del pedido'
FROM "invoices" i WHERE i."uuid" IS NOT NULL AND i."status" IN ('issued', 'cancelled', 'replaced');
--> statement-breakpoint
INSERT INTO "order_ledger" ("order_number", "kind", "amount_cents", "reference", "detail", "actor", "reason")
SELECT i."order_number", CASE WHEN i."kind" = 'E' THEN 'credit_note_cancelled' ELSE 'invoice_cancelled' END,
  i."total_cents", i."uuid", jsonb_build_object('motivo', i."cancel_motivo"),
  '{"by":"system","userId":null,"label":"migración 0026"}'::jsonb, 'CFDI cancelado antes del libro del pedido'
FROM "invoices" i WHERE i."uuid" IS NOT NULL AND i."status" = 'cancelled';
--> statement-breakpoint
INSERT INTO "order_ledger" ("order_number", "kind", "amount_cents", "reference", "actor", "reason")
SELECT m."order_number", 'global_in', o."total_cents", g."uuid",
  '{"by":"system","userId":null,"label":"migración 0026"}'::jsonb, 'Factura global anterior al libro del pedido'
FROM "global_invoice_orders" m JOIN "global_invoices" g ON g."id" = m."global_invoice_id"
JOIN "orders" o ON o."number" = m."order_number"
WHERE g."status" = 'issued' AND g."uuid" IS NOT NULL;
