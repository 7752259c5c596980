CREATE TABLE "cfdi_folio_series" (
	"series" text PRIMARY KEY NOT NULL,
	"last_folio" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cfdi_free_folios" (
	"series" text NOT NULL,
	"folio" integer NOT NULL,
	CONSTRAINT "cfdi_free_folios_series_folio_pk" PRIMARY KEY("series","folio")
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "serie" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "folio" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_serie_folio_idx" ON "invoices" USING btree ("serie","folio");