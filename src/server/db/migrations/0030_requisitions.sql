-- Requisitions (issue 34, decision 059): a cart or quotation sent for approval, its trail of decisions, and the
-- institution's rule that an approved requisition is placed at once; an institution's contract prices, and the
-- institution a quotation was issued for.
CREATE TABLE "institution_prices" (
	"id" serial PRIMARY KEY NOT NULL,
	"institution_id" integer NOT NULL,
	"product_code" text NOT NULL,
	"price_cents" bigint NOT NULL,
	"valid_from" date NOT NULL,
	"valid_to" date NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "institution_prices_price_chk" CHECK ("institution_prices"."price_cents" > 0),
	CONSTRAINT "institution_prices_dates_chk" CHECK ("institution_prices"."valid_to" >= "institution_prices"."valid_from")
);
--> statement-breakpoint
CREATE TABLE "requisition_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"requisition_id" integer NOT NULL,
	"actor_id" integer,
	"event" text NOT NULL,
	"from_state" text,
	"to_state" text NOT NULL,
	"reason" text,
	"order_number" integer,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "requisitions" (
	"id" serial PRIMARY KEY NOT NULL,
	"institution_id" integer NOT NULL,
	"requester_id" integer NOT NULL,
	"state" text DEFAULT 'pendiente' NOT NULL,
	"quotation_id" integer NOT NULL,
	"total_cents" bigint NOT NULL,
	"line_count" integer NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"cost_centre" text DEFAULT '' NOT NULL,
	"project" text DEFAULT '' NOT NULL,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"reason" text,
	"placed_by" integer,
	"order_number" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "requisitions_state_chk" CHECK ("requisitions"."state" in ('pendiente', 'aprobada', 'rechazada', 'devuelta', 'colocada', 'cancelada')),
	CONSTRAINT "requisitions_total_chk" CHECK ("requisitions"."total_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "institutions" ADD COLUMN "approval_places_order" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "institution_prices" ADD CONSTRAINT "institution_prices_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "institution_prices" ADD CONSTRAINT "institution_prices_product_code_products_code_fk" FOREIGN KEY ("product_code") REFERENCES "public"."products"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "institution_prices" ADD CONSTRAINT "institution_prices_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requisition_events" ADD CONSTRAINT "requisition_events_requisition_id_requisitions_id_fk" FOREIGN KEY ("requisition_id") REFERENCES "public"."requisitions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requisition_events" ADD CONSTRAINT "requisition_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requisitions" ADD CONSTRAINT "requisitions_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requisitions" ADD CONSTRAINT "requisitions_requester_id_users_id_fk" FOREIGN KEY ("requester_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requisitions" ADD CONSTRAINT "requisitions_quotation_id_quotations_id_fk" FOREIGN KEY ("quotation_id") REFERENCES "public"."quotations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requisitions" ADD CONSTRAINT "requisitions_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requisitions" ADD CONSTRAINT "requisitions_placed_by_users_id_fk" FOREIGN KEY ("placed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requisitions" ADD CONSTRAINT "requisitions_order_number_orders_number_fk" FOREIGN KEY ("order_number") REFERENCES "public"."orders"("number") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "institution_prices_period_uq" ON "institution_prices" USING btree ("institution_id","product_code","valid_from");--> statement-breakpoint
CREATE INDEX "institution_prices_code_idx" ON "institution_prices" USING btree ("product_code");--> statement-breakpoint
CREATE INDEX "requisition_events_requisition_idx" ON "requisition_events" USING btree ("requisition_id","id");--> statement-breakpoint
CREATE INDEX "requisitions_institution_idx" ON "requisitions" USING btree ("institution_id","created_at");--> statement-breakpoint
CREATE INDEX "requisitions_requester_idx" ON "requisitions" USING btree ("requester_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "requisitions_order_uq" ON "requisitions" USING btree ("order_number");
