CREATE SEQUENCE "public"."quotation_folio_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "fiscal_profiles" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"rfc" text NOT NULL,
	"nombre_fiscal" text NOT NULL,
	"regimen_fiscal" text NOT NULL,
	"cp" text NOT NULL,
	"uso_cfdi" text NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"rfc_confirmado" boolean DEFAULT false NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "purchase_invoice_requests" (
	"order_number" integer PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"request" jsonb NOT NULL,
	"email" text NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quotation_revisions" (
	"quotation_id" integer NOT NULL,
	"revision" integer NOT NULL,
	"reason" text NOT NULL,
	"lines" jsonb NOT NULL,
	"discount_percent" numeric(5, 2) DEFAULT 0 NOT NULL,
	"subtotal_cents" bigint NOT NULL,
	"discount_cents" bigint DEFAULT 0 NOT NULL,
	"shipping_cents" bigint NOT NULL,
	"iva_cents" bigint NOT NULL,
	"total_cents" bigint NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"valid_until" timestamp with time zone NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quotation_revisions_quotation_id_revision_pk" PRIMARY KEY("quotation_id","revision")
);
--> statement-breakpoint
CREATE TABLE "quotations" (
	"id" serial PRIMARY KEY NOT NULL,
	"folio" text NOT NULL,
	"user_id" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"valid_until" timestamp with time zone NOT NULL,
	"buyer_name" text NOT NULL,
	"institution" text DEFAULT '' NOT NULL,
	"rfc" text DEFAULT '' NOT NULL,
	"purchase_order" text,
	"order_number" integer,
	"converted_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "requires_purchase_order" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "purchase_order" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "quotation_id" integer;--> statement-breakpoint
ALTER TABLE "fiscal_profiles" ADD CONSTRAINT "fiscal_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_invoice_requests" ADD CONSTRAINT "purchase_invoice_requests_order_number_orders_number_fk" FOREIGN KEY ("order_number") REFERENCES "public"."orders"("number") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotation_revisions" ADD CONSTRAINT "quotation_revisions_quotation_id_quotations_id_fk" FOREIGN KEY ("quotation_id") REFERENCES "public"."quotations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotation_revisions" ADD CONSTRAINT "quotation_revisions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotations" ADD CONSTRAINT "quotations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fiscal_profiles_user_idx" ON "fiscal_profiles" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "quotations_folio_idx" ON "quotations" USING btree ("folio");--> statement-breakpoint
CREATE INDEX "quotations_user_idx" ON "quotations" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "quotations_order_idx" ON "quotations" USING btree ("order_number") WHERE "quotations"."order_number" is not null;--> statement-breakpoint
CREATE INDEX "orders_quotation_idx" ON "orders" USING btree ("quotation_id") WHERE "orders"."quotation_id" is not null;