-- Issue 34 (decision 060): credit payments and their CFDI de pago, allocations to invoices PPD, reminders; invoices' MetodoPago and due date.
CREATE TABLE "credit_payment_allocations" (
	"payment_id" integer NOT NULL,
	"invoice_id" integer NOT NULL,
	"order_number" integer NOT NULL,
	"amount_cents" bigint NOT NULL,
	"num_parcialidad" integer NOT NULL,
	"balance_before_cents" bigint NOT NULL,
	"balance_after_cents" bigint NOT NULL,
	"base_cents" bigint NOT NULL,
	"iva_cents" bigint NOT NULL,
	CONSTRAINT "credit_payment_allocations_payment_id_invoice_id_pk" PRIMARY KEY("payment_id","invoice_id"),
	CONSTRAINT "credit_payment_allocations_amounts" CHECK ("credit_payment_allocations"."amount_cents" > 0 and "credit_payment_allocations"."balance_after_cents" >= 0 and "credit_payment_allocations"."balance_before_cents" - "credit_payment_allocations"."amount_cents" = "credit_payment_allocations"."balance_after_cents")
);
--> statement-breakpoint
CREATE TABLE "credit_payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"institution_id" integer NOT NULL,
	"received_on" date NOT NULL,
	"amount_cents" bigint NOT NULL,
	"bank_reference" text NOT NULL,
	"forma_pago" text DEFAULT '03' NOT NULL,
	"recorded_by" integer,
	"cfdi_status" text DEFAULT 'pending' NOT NULL,
	"pac" text,
	"serie" text,
	"folio" integer,
	"uuid" text,
	"test" boolean DEFAULT false NOT NULL,
	"sealed" jsonb,
	"xml" text,
	"snapshot" jsonb,
	"lease_until" timestamp with time zone,
	"last_error" text,
	"issued_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_payments_amount" CHECK ("credit_payments"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "credit_reminders" (
	"invoice_id" integer NOT NULL,
	"kind" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_reminders_invoice_id_kind_pk" PRIMARY KEY("invoice_id","kind")
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "metodo_pago" text DEFAULT 'PUE' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "credit_payment_allocations" ADD CONSTRAINT "credit_payment_allocations_payment_id_credit_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."credit_payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_payment_allocations" ADD CONSTRAINT "credit_payment_allocations_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_payment_allocations" ADD CONSTRAINT "credit_payment_allocations_order_number_orders_number_fk" FOREIGN KEY ("order_number") REFERENCES "public"."orders"("number") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_payments" ADD CONSTRAINT "credit_payments_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_payments" ADD CONSTRAINT "credit_payments_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_reminders" ADD CONSTRAINT "credit_reminders_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_payment_allocations_parcialidad_idx" ON "credit_payment_allocations" USING btree ("invoice_id","num_parcialidad");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_payments_reference_idx" ON "credit_payments" USING btree ("institution_id","bank_reference");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_payments_uuid_idx" ON "credit_payments" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "credit_payments_pending_idx" ON "credit_payments" USING btree ("cfdi_status") WHERE "credit_payments"."cfdi_status" = 'pending';