-- Suggestions while typing (decision 067): a prefix index made for them, so a prefix nobody asked since the
-- last catalogue change costs a short range read instead of the ranked full-text search.
--
-- product_suggest: one row per listed product (active, not a presentation of another) with its folded name
-- and its searchable words folded (unaccented, lower case, punctuation as spaces) and padded with spaces
-- (' code name brand line type cas formula '), read by code to check a query's other words.
-- product_suggest_terms: each distinct word of those rows with its product, group and name's first word, and
-- lcp = how many leading characters it shares with the product's previous word in byte order. The words of a
-- product that start with a prefix of length L are consecutive in that order, so exactly one of them has
-- lcp < L: "word LIKE 'pi%' AND lcp < 2" reads each matching product once, from one btree range, index only —
-- the total and the category counts need no DISTINCT and no visit to products.
--
-- Both are kept by triggers on products, so every write path (back office, import, seed) keeps them current
-- without code of its own; stock and price updates do not fire them. Not part of the Drizzle schema: read
-- through raw SQL by src/server/catalog/suggest.ts. Plain btree, so PGlite and PostgreSQL alike.

-- The same folding as termKey() in src/server/catalog/vocabulary.ts.
CREATE FUNCTION suggest_key(doc text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT btrim(regexp_replace(lower(unaccent(doc)), '[^[:alnum:]]+', ' ', 'g'))
$$;
--> statement-breakpoint
CREATE FUNCTION product_suggest_words(code text, name text, brand text, line text, type text, cas text, formula text)
RETURNS text LANGUAGE sql STABLE AS $$
  SELECT ' ' || suggest_key(concat_ws(' ', code, name, brand, line, type, cas,
    translate(formula, '₀₁₂₃₄₅₆₇₈₉ ·.', '0123456789'))) || ' '
$$;
--> statement-breakpoint
-- Each distinct word of a product's words with its lcp (see above).
CREATE FUNCTION suggest_terms_of(words text) RETURNS TABLE (word text, lcp smallint) LANGUAGE sql IMMUTABLE AS $$
  SELECT w, (SELECT count(*) FROM generate_series(1, least(length(w), length(prev))) k
             WHERE left(w, k) = left(prev, k))::smallint
  FROM (SELECT w, lag(w) OVER (ORDER BY w) AS prev
        FROM (SELECT DISTINCT x COLLATE "C" AS w FROM unnest(string_to_array(btrim(words), ' ')) AS x
              WHERE x <> '') d) s
$$;
--> statement-breakpoint
CREATE TABLE product_suggest (
  code text COLLATE "C" PRIMARY KEY,
  group_clas text,
  name_key text COLLATE "C" NOT NULL,
  words text COLLATE "C" NOT NULL
);
--> statement-breakpoint
CREATE TABLE product_suggest_terms (
  word text COLLATE "C" NOT NULL,
  code text COLLATE "C" NOT NULL,
  lcp smallint NOT NULL,
  group_clas text,
  lead text COLLATE "C" NOT NULL
);
--> statement-breakpoint
-- In (word, code) order, so the first suggestions after the names that start with the text are read in index
-- order and the read stops at the few needed.
CREATE INDEX product_suggest_terms_idx ON product_suggest_terms (word, code) INCLUDE (lcp, group_clas, lead);
--> statement-breakpoint
-- Names that start with the typed text, in name order.
CREATE INDEX product_suggest_name_idx ON product_suggest (name_key, code);
--> statement-breakpoint
CREATE FUNCTION product_suggest_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH added AS (
    INSERT INTO product_suggest (code, group_clas, name_key, words)
    SELECT n.code, n.group_clas, suggest_key(n.name),
      product_suggest_words(n.code, n.name, n.brand, n.line, n.type, n.cas_number, n.formula)
    FROM new_rows n WHERE n.active AND n.family_code IS NULL
    ON CONFLICT (code) DO NOTHING
    RETURNING *
  )
  INSERT INTO product_suggest_terms (word, code, lcp, group_clas, lead)
  SELECT t.word, a.code, t.lcp, a.group_clas, split_part(a.name_key, ' ', 1)
  FROM added a CROSS JOIN LATERAL suggest_terms_of(a.words) t;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER products_suggest_insert AFTER INSERT ON products
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_suggest_insert();
--> statement-breakpoint
CREATE FUNCTION product_suggest_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  kept product_suggest;
BEGIN
  DELETE FROM product_suggest WHERE code = OLD.code RETURNING * INTO kept;
  IF kept.code IS NOT NULL THEN
    DELETE FROM product_suggest_terms
    WHERE word = ANY (string_to_array(btrim(kept.words), ' ')) AND code = kept.code;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.active AND NEW.family_code IS NULL THEN
    INSERT INTO product_suggest (code, group_clas, name_key, words)
    VALUES (NEW.code, NEW.group_clas, suggest_key(NEW.name),
      product_suggest_words(NEW.code, NEW.name, NEW.brand, NEW.line, NEW.type, NEW.cas_number, NEW.formula))
    RETURNING * INTO kept;
    INSERT INTO product_suggest_terms (word, code, lcp, group_clas, lead)
    SELECT t.word, kept.code, t.lcp, kept.group_clas, split_part(kept.name_key, ' ', 1)
    FROM suggest_terms_of(kept.words) t;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Only when a column it holds really changes: stock and price updates do not fire it, nor does an import that
-- rewrites every column of a row (INSERT … ON CONFLICT DO UPDATE) with the same name, brand, group….
CREATE TRIGGER products_suggest_update
  AFTER UPDATE OF code, name, brand, line, type, cas_number, formula, group_clas, active, family_code ON products
  FOR EACH ROW WHEN (
    (OLD.code, OLD.name, OLD.brand, OLD.line, OLD.type, OLD.cas_number, OLD.formula, OLD.group_clas, OLD.active,
      OLD.family_code)
    IS DISTINCT FROM
    (NEW.code, NEW.name, NEW.brand, NEW.line, NEW.type, NEW.cas_number, NEW.formula, NEW.group_clas, NEW.active,
      NEW.family_code)
  ) EXECUTE FUNCTION product_suggest_row();
--> statement-breakpoint
CREATE TRIGGER products_suggest_delete AFTER DELETE ON products
  FOR EACH ROW EXECUTE FUNCTION product_suggest_row();
--> statement-breakpoint
CREATE FUNCTION product_suggest_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE product_suggest, product_suggest_terms;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER products_suggest_truncate AFTER TRUNCATE ON products
  FOR EACH STATEMENT EXECUTE FUNCTION product_suggest_truncate();
--> statement-breakpoint
INSERT INTO product_suggest (code, group_clas, name_key, words)
SELECT code, group_clas, suggest_key(name),
  product_suggest_words(code, name, brand, line, type, cas_number, formula)
FROM products WHERE active AND family_code IS NULL;
--> statement-breakpoint
INSERT INTO product_suggest_terms (word, code, lcp, group_clas, lead)
SELECT t.word, s.code, t.lcp, s.group_clas, split_part(s.name_key, ' ', 1)
FROM product_suggest s CROSS JOIN LATERAL suggest_terms_of(s.words) t;
