CREATE TABLE "global_invoice_orders" (
	"global_invoice_id" integer NOT NULL,
	"order_number" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "global_invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"year" integer NOT NULL,
	"month" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"test" boolean DEFAULT false NOT NULL,
	"uuid" text,
	"forma_pago" text NOT NULL,
	"subtotal_cents" bigint NOT NULL,
	"iva_cents" bigint NOT NULL,
	"total_cents" bigint NOT NULL,
	"xml" text,
	"issued_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_method" text DEFAULT 'card' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "msi_months" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "late_payment_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "instructions" jsonb;--> statement-breakpoint
ALTER TABLE "sandbox_charges" ADD COLUMN "method" text DEFAULT 'card' NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_charges" ADD COLUMN "due_date" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sandbox_charges" ADD COLUMN "payment_method" jsonb;--> statement-breakpoint
ALTER TABLE "global_invoice_orders" ADD CONSTRAINT "global_invoice_orders_global_invoice_id_global_invoices_id_fk" FOREIGN KEY ("global_invoice_id") REFERENCES "public"."global_invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "global_invoice_orders" ADD CONSTRAINT "global_invoice_orders_order_number_orders_number_fk" FOREIGN KEY ("order_number") REFERENCES "public"."orders"("number") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "global_invoice_orders_order_idx" ON "global_invoice_orders" USING btree ("order_number");--> statement-breakpoint
CREATE UNIQUE INDEX "global_invoices_period_idx" ON "global_invoices" USING btree ("year","month");