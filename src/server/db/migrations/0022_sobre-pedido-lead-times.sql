ALTER TABLE "products" ADD COLUMN "backorderable" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "lead_min_days" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "lead_max_days" integer;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "backordered_quantity" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "backorder_from" date;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "backorder_to" date;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "ship_now_by" date;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_lead_time" CHECK ((not "products"."backorderable" and "products"."lead_min_days" is null and "products"."lead_max_days" is null) or ("products"."backorderable" and "products"."lead_min_days" between 1 and 180 and "products"."lead_max_days" between "products"."lead_min_days" and 180));--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_backordered" CHECK ("order_lines"."backordered_quantity" between 0 and "order_lines"."quantity" and ("order_lines"."backordered_quantity" = 0) = ("order_lines"."backorder_from" is null) and ("order_lines"."backorder_from" is null) = ("order_lines"."backorder_to" is null));--> statement-breakpoint
-- 'Sobre pedido' and its lead time are shown on public pages (product page, picker, listing cards): the catalogue
-- version moves when they change (0015's column list plus the three new columns).
DROP TRIGGER products_catalogue_version ON products;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER products_catalogue_version
  AFTER INSERT OR DELETE OR UPDATE OF code, name, brand, group_clas, line, type, price_cents, active, short_desc, long_desc_html, cas_number, formula, family_code, backorderable, lead_min_days, lead_max_days
  ON products DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalogue_version_bump();
