-- Issue 36 (decision 066): a reorder point per presentation (a products row); null = REORDER_POINT_DEFAULT.
ALTER TABLE "products" ADD COLUMN "reorder_point" integer;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_reorder_point_range" CHECK ("products"."reorder_point" between 0 and 100000);
