-- A product card's picture URL carries the image's hash (…/image?v={hash}, cached a year by browsers), and the
-- listing and the suggestions keep everything a card shows but stock per catalogue version (decision 033): so
-- changing the image bumps the version too (trigger of 0007, last re-created in 0023; same list plus image_hash).
DROP TRIGGER products_catalogue_version ON products;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER products_catalogue_version
  AFTER INSERT OR DELETE OR UPDATE OF code, name, brand, group_clas, line, type, price_cents, active, short_desc, long_desc_html, cas_number, formula, family_code, backorderable, lead_min_days, lead_max_days, controlled, image_hash
  ON products DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalogue_version_bump();
