ALTER TABLE "products" ADD COLUMN "molar_mass" numeric(12, 4);--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "grade" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "ghs_pictograms" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "signal_word" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "hazard_statements" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "precautionary_statements" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "storage_conditions" text;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_molar_mass_positive" CHECK ("products"."molar_mass" > 0);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_signal_word" CHECK ("products"."signal_word" in ('danger', 'warning'));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_ghs_pictograms" CHECK ("products"."ghs_pictograms" <@ array['GHS01','GHS02','GHS03','GHS04','GHS05','GHS06','GHS07','GHS08','GHS09']::text[]);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_safety_on_base" CHECK ("products"."family_code" is null or ("products"."molar_mass" is null and "products"."grade" is null and "products"."signal_word" is null and "products"."storage_conditions" is null and cardinality("products"."ghs_pictograms") = 0 and cardinality("products"."hazard_statements") = 0 and cardinality("products"."precautionary_statements") = 0));