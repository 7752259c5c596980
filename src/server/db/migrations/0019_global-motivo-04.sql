DROP INDEX "global_invoices_period_idx";--> statement-breakpoint
ALTER TABLE "global_invoices" ADD COLUMN "sealed" text;--> statement-breakpoint
ALTER TABLE "global_invoices" ADD COLUMN "replaces_id" integer;--> statement-breakpoint
ALTER TABLE "global_invoices" ADD COLUMN "related_uuid" text;--> statement-breakpoint
ALTER TABLE "global_invoices" ADD COLUMN "released_order_number" integer;--> statement-breakpoint
ALTER TABLE "global_invoices" ADD COLUMN "cancel_motivo" text;--> statement-breakpoint
ALTER TABLE "global_invoices" ADD COLUMN "cancel_acknowledgement" text;--> statement-breakpoint
ALTER TABLE "global_invoices" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "global_invoices_period_idx" ON "global_invoices" USING btree ("year","month") WHERE "global_invoices"."status" <> 'cancelled';