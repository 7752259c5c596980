-- Listings by brand or group page in code order and count the other facets of the same products:
-- covering partial indexes let both run as index-only scans (no visit to the wide product rows).
DROP INDEX IF EXISTS products_active_brand_code_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS products_active_group_code_idx;
--> statement-breakpoint
CREATE INDEX products_active_brand_listing_idx ON products (brand, code)
  INCLUDE (group_clas, line, type, price_cents) WHERE active;
--> statement-breakpoint
CREATE INDEX products_active_group_listing_idx ON products (group_clas, code)
  INCLUDE (brand, line, type, price_cents) WHERE active;
