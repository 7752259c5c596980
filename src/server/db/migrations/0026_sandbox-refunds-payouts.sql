CREATE TABLE "sandbox_payouts" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"clabe" text NOT NULL,
	"holder_name" text NOT NULL,
	"description" text NOT NULL,
	"status" text NOT NULL,
	"error_code" integer,
	"error_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_payouts_order_id_unique" UNIQUE("order_id")
);
--> statement-breakpoint
ALTER TABLE "sandbox_charges" ADD COLUMN "refunds" jsonb DEFAULT '[]'::jsonb NOT NULL;