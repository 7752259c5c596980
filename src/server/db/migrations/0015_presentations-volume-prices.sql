CREATE TABLE "price_breaks" (
	"product_code" text NOT NULL,
	"min_quantity" integer NOT NULL,
	"price_cents" integer NOT NULL,
	CONSTRAINT "price_breaks_product_code_min_quantity_pk" PRIMARY KEY("product_code","min_quantity"),
	CONSTRAINT "price_breaks_min_quantity" CHECK ("price_breaks"."min_quantity" >= 2),
	CONSTRAINT "price_breaks_price_positive" CHECK ("price_breaks"."price_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "family_code" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "presentation_label" text;--> statement-breakpoint
ALTER TABLE "price_breaks" ADD CONSTRAINT "price_breaks_product_code_products_code_fk" FOREIGN KEY ("product_code") REFERENCES "public"."products"("code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_family_code_products_code_fk" FOREIGN KEY ("family_code") REFERENCES "public"."products"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "products_family_idx" ON "products" USING btree ("family_code");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_family_not_self" CHECK ("products"."family_code" <> "products"."code");--> statement-breakpoint
-- Listings show one card per family (decision 021): the listed rows are the active products that are not a
-- presentation of another, and the covering listing indexes of 0006 hold exactly those rows.
DROP INDEX IF EXISTS products_active_brand_listing_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS products_active_group_listing_idx;
--> statement-breakpoint
CREATE INDEX products_listed_brand_idx ON products (brand, code)
  INCLUDE (group_clas, line, type, price_cents) WHERE active AND family_code IS NULL;
--> statement-breakpoint
CREATE INDEX products_listed_group_idx ON products (group_clas, code)
  INCLUDE (brand, line, type, price_cents) WHERE active AND family_code IS NULL;
--> statement-breakpoint
-- A product joining or leaving a family changes which rows are listed: the catalogue version moves (the
-- column list keeps 0014's cas_number and formula, which search matches).
DROP TRIGGER products_catalogue_version ON products;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER products_catalogue_version
  AFTER INSERT OR DELETE OR UPDATE OF code, name, brand, group_clas, line, type, price_cents, active, short_desc, long_desc_html, cas_number, formula, family_code
  ON products DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalogue_version_bump();
