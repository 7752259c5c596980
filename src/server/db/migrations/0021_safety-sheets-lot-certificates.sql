CREATE TABLE "lot_certificates" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"family_code" text NOT NULL,
	"lot" text NOT NULL,
	"data" "bytea" NOT NULL,
	"hash" text NOT NULL,
	"bytes" integer NOT NULL,
	"analysis_date" date,
	"expiry_date" date,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uploaded_by" integer,
	CONSTRAINT "lot_certificates_lot_length" CHECK (char_length("lot_certificates"."lot") between 1 and 40)
);
--> statement-breakpoint
CREATE TABLE "product_safety_sheets" (
	"family_code" text PRIMARY KEY NOT NULL,
	"data" "bytea" NOT NULL,
	"hash" text NOT NULL,
	"bytes" integer NOT NULL,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uploaded_by" integer
);
--> statement-breakpoint
ALTER TABLE "lot_certificates" ADD CONSTRAINT "lot_certificates_family_code_products_code_fk" FOREIGN KEY ("family_code") REFERENCES "public"."products"("code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lot_certificates" ADD CONSTRAINT "lot_certificates_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_safety_sheets" ADD CONSTRAINT "product_safety_sheets_family_code_products_code_fk" FOREIGN KEY ("family_code") REFERENCES "public"."products"("code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_safety_sheets" ADD CONSTRAINT "product_safety_sheets_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lot_certificates_family_lot_idx" ON "lot_certificates" USING btree ("family_code",upper("lot"));--> statement-breakpoint
CREATE INDEX "lot_certificates_family_uploaded_idx" ON "lot_certificates" USING btree ("family_code","uploaded_at");