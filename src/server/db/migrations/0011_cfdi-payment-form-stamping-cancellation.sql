-- Issue 14, invoices (docs/decisions/015 and 016).
-- 1. FormaPago from the real payment reads payments.method / card_type, added by 0010.
-- 2. Stamping idempotent across crashes: the sealed CFDI (XML and its data) is kept on the 'pending' row
--    before the PAC is called, so a retry sends the same document (same Serie/Folio/Sello) and recovers the
--    PAC's stamp; the sandbox PAC keeps its stamps in a table so that it answers the same after a crash.
ALTER TABLE "invoices" ADD COLUMN "sealed" jsonb;--> statement-breakpoint
CREATE TABLE "sandbox_cfdi_stamps" (
	"key" text PRIMARY KEY NOT NULL,
	"stamp" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
-- 3. Credit notes (CFDI de egreso) and related CFDIs (TipoRelacion 04 replacement, 01 credit note).
ALTER TABLE "invoices" ADD COLUMN "kind" text DEFAULT 'I' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "relation_type" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "related_uuid" text;--> statement-breakpoint
-- 4. Cancellation by motivo, with the receptor's acceptance ('en proceso') followed up.
ALTER TABLE "invoices" ADD COLUMN "cancel_status" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "cancel_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "substitute_uuid" text;--> statement-breakpoint
DROP INDEX IF EXISTS "invoices_one_active_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_one_active_idx" ON "invoices" USING btree ("order_number") WHERE "invoices"."status" in ('pending', 'issued') and "invoices"."kind" = 'I';--> statement-breakpoint
CREATE INDEX "invoices_cancel_pending_idx" ON "invoices" USING btree ("cancel_status") WHERE "invoices"."cancel_status" = 'pending';
