CREATE TABLE "invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_number" integer NOT NULL,
	"user_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"pac" text NOT NULL,
	"test" boolean DEFAULT false NOT NULL,
	"uuid" text,
	"rfc" text NOT NULL,
	"nombre_fiscal" text NOT NULL,
	"regimen_fiscal" text NOT NULL,
	"uso_cfdi" text NOT NULL,
	"forma_pago" text NOT NULL,
	"cp" text NOT NULL,
	"subtotal_cents" integer NOT NULL,
	"iva_cents" integer NOT NULL,
	"total_cents" integer NOT NULL,
	"xml" text,
	"snapshot" jsonb,
	"issued_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancel_motivo" text,
	"cancel_acknowledgement" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_number_orders_number_fk" FOREIGN KEY ("order_number") REFERENCES "public"."orders"("number") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_one_active_idx" ON "invoices" USING btree ("order_number") WHERE "invoices"."status" in ('pending', 'issued');--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_uuid_idx" ON "invoices" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "invoices_order_idx" ON "invoices" USING btree ("order_number","created_at");