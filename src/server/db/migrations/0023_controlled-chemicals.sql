CREATE TABLE "controlled_declarations" (
	"order_number" integer PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"products" jsonb NOT NULL,
	"rfc" text NOT NULL,
	"razon_social" text NOT NULL,
	"fiscal_profile_id" integer,
	"declared_use" text NOT NULL,
	"text_version" text NOT NULL,
	"accepted_text" text NOT NULL,
	"accepted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "controlled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "controlled_declarations" ADD CONSTRAINT "controlled_declarations_order_number_orders_number_fk" FOREIGN KEY ("order_number") REFERENCES "public"."orders"("number") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "controlled_declarations" ADD CONSTRAINT "controlled_declarations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "controlled_declarations_accepted_idx" ON "controlled_declarations" USING btree ("accepted_at");--> statement-breakpoint
-- The product page and the cart tell a buyer that a product is controlled: the flag is public catalogue content,
-- so changing it bumps the catalogue version (trigger of 0007, last re-created in 0022; same list plus controlled).
DROP TRIGGER products_catalogue_version ON products;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER products_catalogue_version
  AFTER INSERT OR DELETE OR UPDATE OF code, name, brand, group_clas, line, type, price_cents, active, short_desc, long_desc_html, cas_number, formula, family_code, backorderable, lead_min_days, lead_max_days, controlled
  ON products DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalogue_version_bump();
