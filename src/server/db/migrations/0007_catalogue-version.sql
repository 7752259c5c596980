-- The catalogue's version: a number that changes, at commit, with every change that can alter a listing's
-- total, facet counts, order or search matches (products added, removed, renamed, re-priced, moved to another
-- brand, group, line or type, activated or deactivated; groups renamed or moved). Stock changes by orders
-- do not touch it. src/server/catalog/selection-cache.ts keeps those counts per selection while the number
-- holds, so a listing costs one page read instead of four facet counts over its products.
--
-- Bumped by a deferred constraint trigger, i.e. at commit: the new number becomes visible together with the
-- rows, and the single row is locked only during commit (a statement-level trigger would hold the lock for
-- the rest of the transaction, and two writers touching the same products could deadlock on it). A
-- transaction bumps it once, however many rows it changes.
CREATE TABLE catalogue_state (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  version bigint NOT NULL
);
--> statement-breakpoint
INSERT INTO catalogue_state (id, version) VALUES (true, 1);
--> statement-breakpoint
CREATE FUNCTION catalogue_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('tienda.catalogue_bumped', true), '') <> '1' THEN
    UPDATE catalogue_state SET version = version + 1;
    PERFORM set_config('tienda.catalogue_bumped', '1', true);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER products_catalogue_version
  AFTER INSERT OR DELETE OR UPDATE OF code, name, brand, group_clas, line, type, price_cents, active, short_desc, long_desc_html
  ON products DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalogue_version_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER groups_catalogue_version
  AFTER INSERT OR DELETE OR UPDATE ON groups
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalogue_version_bump();
--> statement-breakpoint
CREATE FUNCTION catalogue_version_bump_now() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE catalogue_state SET version = version + 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER products_catalogue_version_truncate AFTER TRUNCATE ON products
  FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump_now();
--> statement-breakpoint
CREATE TRIGGER groups_catalogue_version_truncate AFTER TRUNCATE ON groups
  FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump_now();
