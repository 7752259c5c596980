-- Spanish search needs accent folding and trigram similarity (both ship with PGlite and PostgreSQL contrib).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;
