CREATE TABLE "search_misses" (
	"day" date NOT NULL,
	"term" text NOT NULL,
	"results" integer NOT NULL,
	"searches" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "search_misses_day_term_pk" PRIMARY KEY("day","term")
);
--> statement-breakpoint
CREATE TABLE "search_synonyms" (
	"id" serial PRIMARY KEY NOT NULL,
	"term" text NOT NULL,
	"term_key" text NOT NULL,
	"canonical" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "search_misses_term_idx" ON "search_misses" USING btree ("term");--> statement-breakpoint
CREATE UNIQUE INDEX "search_synonyms_term_key_idx" ON "search_synonyms" USING btree ("term_key");--> statement-breakpoint
CREATE INDEX "products_formula_key_idx" ON "products" USING btree (upper(translate("formula", '₀₁₂₃₄₅₆₇₈₉ ·.', '0123456789')));
--> statement-breakpoint
-- The catalogue version (0007) also moves when a reagent's CAS number or formula changes (search matches them),
-- and when the lab's vocabulary changes (search rewrites words with it): cached search plans follow.
DROP TRIGGER products_catalogue_version ON products;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER products_catalogue_version
  AFTER INSERT OR DELETE OR UPDATE OF code, name, brand, group_clas, line, type, price_cents, active, short_desc, long_desc_html, cas_number, formula
  ON products DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalogue_version_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER search_synonyms_catalogue_version
  AFTER INSERT OR DELETE OR UPDATE ON search_synonyms
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalogue_version_bump();
--> statement-breakpoint
CREATE TRIGGER search_synonyms_catalogue_version_truncate AFTER TRUNCATE ON search_synonyms
  FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump_now();
--> statement-breakpoint
-- A starting vocabulary (staff edit it in the back office): common, trade and English names of what labs buy.
INSERT INTO search_synonyms (term, term_key, canonical) VALUES
('ácido muriático', 'acido muriatico', 'ácido clorhídrico'),
('muriático', 'muriatico', 'clorhídrico'),
('hydrochloric acid', 'hydrochloric acid', 'ácido clorhídrico'),
('sulfuric acid', 'sulfuric acid', 'ácido sulfúrico'),
('sulphuric acid', 'sulphuric acid', 'ácido sulfúrico'),
('aceite de vitriolo', 'aceite de vitriolo', 'ácido sulfúrico'),
('vitriolo', 'vitriolo', 'ácido sulfúrico'),
('nitric acid', 'nitric acid', 'ácido nítrico'),
('agua fuerte', 'agua fuerte', 'ácido nítrico'),
('acetic acid', 'acetic acid', 'ácido acético'),
('vinagre glacial', 'vinagre glacial', 'ácido acético glacial'),
('sosa cáustica', 'sosa caustica', 'hidróxido de sodio'),
('soda cáustica', 'soda caustica', 'hidróxido de sodio'),
('sodium hydroxide', 'sodium hydroxide', 'hidróxido de sodio'),
('lejía de sosa', 'lejia de sosa', 'hidróxido de sodio'),
('sodium chloride', 'sodium chloride', 'cloruro de sodio'),
('sal común', 'sal comun', 'cloruro de sodio'),
('sal de mesa', 'sal de mesa', 'cloruro de sodio'),
('copper sulfate', 'copper sulfate', 'sulfato de cobre'),
('sulfato cúprico', 'sulfato cuprico', 'sulfato de cobre'),
('vitriolo azul', 'vitriolo azul', 'sulfato de cobre'),
('alcohol etílico', 'alcohol etilico', 'etanol'),
('ethanol', 'ethanol', 'etanol'),
('alcohol metílico', 'alcohol metilico', 'metanol'),
('methanol', 'methanol', 'metanol'),
('alcohol de madera', 'alcohol de madera', 'metanol'),
('acetone', 'acetone', 'acetona'),
('propanona', 'propanona', 'acetona'),
('dimetilcetona', 'dimetilcetona', 'acetona'),
('phenolphthalein', 'phenolphthalein', 'fenolftaleína'),
('erlenmeyer flask', 'erlenmeyer flask', 'matraz erlenmeyer'),
('volumetric flask', 'volumetric flask', 'matraz volumétrico'),
('matraz aforado', 'matraz aforado', 'matraz volumétrico'),
('flask', 'flask', 'matraz'),
('beaker', 'beaker', 'vaso de precipitado'),
('vaso de pp', 'vaso de pp', 'vaso de precipitado'),
('graduated cylinder', 'graduated cylinder', 'probeta'),
('pipette', 'pipette', 'pipeta'),
('burette', 'burette', 'bureta'),
('centrifuge', 'centrifuge', 'centrífuga'),
('hot plate', 'hot plate', 'parrilla'),
('stirrer', 'stirrer', 'agitador'),
('ph meter', 'ph meter', 'potenciómetro'),
('phmetro', 'phmetro', 'potenciómetro'),
('peachímetro', 'peachimetro', 'potenciómetro'),
('pehachímetro', 'pehachimetro', 'potenciómetro'),
('thermometer', 'thermometer', 'termómetro'),
('spectrophotometer', 'spectrophotometer', 'espectrofotómetro'),
('conductivity meter', 'conductivity meter', 'conductímetro'),
('incubator', 'incubator', 'incubadora'),
('drying oven', 'drying oven', 'estufa de secado'),
('horno de secado', 'horno de secado', 'estufa de secado'),
('water bath', 'water bath', 'baño maría'),
('pipette tips', 'pipette tips', 'puntas'),
('tips', 'tips', 'puntas'),
('test tube', 'test tube', 'tubo'),
('falcon', 'falcon', 'tubos cónicos'),
('eppendorf', 'eppendorf', 'microtubos'),
('wash bottle', 'wash bottle', 'pizeta'),
('piseta', 'piseta', 'pizeta'),
('piceta', 'piceta', 'pizeta'),
('gloves', 'gloves', 'guantes'),
('safety glasses', 'safety glasses', 'lentes de seguridad'),
('goggles', 'goggles', 'lentes de seguridad'),
('gafas', 'gafas', 'lentes'),
('lab coat', 'lab coat', 'bata'),
('face shield', 'face shield', 'careta'),
('eyewash', 'eyewash', 'lavaojos'),
('petri dish', 'petri dish', 'caja petri'),
('placa petri', 'placa petri', 'caja petri'),
('culture medium', 'culture medium', 'medio de cultivo'),
('inoculating loop', 'inoculating loop', 'asa bacteriológica'),
('swab', 'swab', 'hisopos'),
('filter paper', 'filter paper', 'papel filtro'),
('syringe', 'syringe', 'jeringa'),
('syringe filter', 'syringe filter', 'filtro de jeringa'),
('vial', 'vial', 'viales'),
('parafilm', 'parafilm', 'película selladora'),
('tube rack', 'tube rack', 'gradilla'),
('balance', 'balance', 'balanza'),
('scale', 'scale', 'balanza'),
('báscula', 'bascula', 'balanza');
