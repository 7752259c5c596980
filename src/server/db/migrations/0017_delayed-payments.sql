ALTER TABLE "orders" ADD COLUMN "payment_method" text DEFAULT 'card' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "msi_months" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "late_payment_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "instructions" jsonb;--> statement-breakpoint
ALTER TABLE "sandbox_charges" ADD COLUMN "method" text DEFAULT 'card' NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_charges" ADD COLUMN "due_date" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sandbox_charges" ADD COLUMN "payment_method" jsonb;