-- Catalogue search: Spanish full-text search that ignores accents, and a vocabulary for typo correction.
-- Written by hand (drizzle-kit cannot express text search configurations or generated tsvectors);
-- the column, table and trigger live outside the Drizzle schema and are used through raw SQL only.

-- 'ácido' and 'acido' give the same lexeme: unaccent runs before the Spanish stemmer.
CREATE TEXT SEARCH CONFIGURATION es_unaccent (COPY = spanish);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION es_unaccent
  ALTER MAPPING FOR hword, hword_part, word, asciiword, asciihword, hword_asciipart WITH unaccent, spanish_stem;
--> statement-breakpoint
-- Weighted document: A code and name, B brand/line/type, C short description, D long description (tags removed).
-- The code is split on punctuation ('CRX-10000' → 'crx', '10000') so a code typed in any case finds its product.
ALTER TABLE products ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('es_unaccent'::regconfig,
    regexp_replace(code, '[^[:alnum:]]+', ' ', 'g') || ' ' || name), 'A') ||
  setweight(to_tsvector('es_unaccent'::regconfig,
    coalesce(brand, '') || ' ' || coalesce(line, '') || ' ' || coalesce(type, '')), 'B') ||
  setweight(to_tsvector('es_unaccent'::regconfig, short_desc), 'C') ||
  setweight(to_tsvector('es_unaccent'::regconfig,
    regexp_replace(long_desc_html, '<[^>]*>', ' ', 'g')), 'D')
) STORED;
--> statement-breakpoint
CREATE INDEX products_search_idx ON products USING gin (search_vector);
--> statement-breakpoint
-- The words shoppers may mistype (unaccented, lower case), for pg_trgm similarity: a few thousand rows
-- however large the catalogue, so correcting a typo is one small index lookup.
CREATE TABLE search_words (word text PRIMARY KEY);
--> statement-breakpoint
CREATE INDEX search_words_trgm_idx ON search_words USING gin (word gin_trgm_ops);
--> statement-breakpoint
CREATE FUNCTION search_words_of(doc text) RETURNS SETOF text LANGUAGE sql STABLE AS $$
  SELECT DISTINCT w FROM regexp_split_to_table(lower(unaccent(doc)), '[^[:alnum:]]+') AS w
  WHERE length(w) BETWEEN 3 AND 40 AND w !~ '^[0-9]+$'
$$;
--> statement-breakpoint
CREATE FUNCTION search_words_collect_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words (word)
  SELECT DISTINCT w FROM new_rows,
    search_words_of(new_rows.name || ' ' || coalesce(new_rows.brand, '') || ' ' || coalesce(new_rows.line, '') || ' ' ||
      coalesce(new_rows.type, '') || ' ' || new_rows.short_desc) AS w
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER products_search_words_insert AFTER INSERT ON products
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_words_collect_new();
--> statement-breakpoint
CREATE FUNCTION search_words_collect_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words (word)
  SELECT w FROM search_words_of(NEW.name || ' ' || coalesce(NEW.brand, '') || ' ' || coalesce(NEW.line, '') || ' ' ||
    coalesce(NEW.type, '') || ' ' || NEW.short_desc) AS w
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Only when the searchable text changes (stock updates by orders do not fire it).
CREATE TRIGGER products_search_words_update AFTER UPDATE OF name, brand, line, type, short_desc ON products
  FOR EACH ROW EXECUTE FUNCTION search_words_collect_row();
--> statement-breakpoint
INSERT INTO search_words (word)
SELECT DISTINCT w FROM products,
  search_words_of(name || ' ' || coalesce(brand, '') || ' ' || coalesce(line, '') || ' ' || coalesce(type, '') || ' ' || short_desc) AS w
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Listings filter active products by brand or group and page in code order.
CREATE INDEX products_active_brand_code_idx ON products (brand, code) WHERE active;
--> statement-breakpoint
CREATE INDEX products_active_group_code_idx ON products (group_clas, code) WHERE active;
