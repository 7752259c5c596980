-- Several shipping addresses per user (issue 20, decision 022). Every existing address stays, becomes its
-- owner's default and is named 'Principal'; orders keep their own snapshots and are not touched.
ALTER TABLE "shipping_addresses" DROP CONSTRAINT "shipping_addresses_pkey";--> statement-breakpoint
ALTER TABLE "shipping_addresses" ADD COLUMN "id" serial PRIMARY KEY NOT NULL;--> statement-breakpoint
ALTER TABLE "shipping_addresses" ADD COLUMN "alias" text DEFAULT 'Principal' NOT NULL;--> statement-breakpoint
ALTER TABLE "shipping_addresses" ADD COLUMN "is_default" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "shipping_addresses" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
UPDATE "shipping_addresses" SET "is_default" = true, "created_at" = "updated_at";--> statement-breakpoint
CREATE INDEX "shipping_addresses_user_idx" ON "shipping_addresses" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "shipping_addresses_one_default_idx" ON "shipping_addresses" USING btree ("user_id") WHERE "shipping_addresses"."is_default";
