ALTER TABLE "products" ADD COLUMN "cas_number" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "formula" text;--> statement-breakpoint
CREATE INDEX "products_cas_idx" ON "products" USING btree ("cas_number");