-- What of each order's sale a factura global states (decision 056): what the shop kept when the global was claimed,
-- so a sale partly given back before the global goes into it for the rest, and the ledger's 'global_in' records
-- that amount. Globals issued before this migration stated each order's total.
ALTER TABLE "global_invoice_orders" ADD COLUMN "amount_cents" bigint;--> statement-breakpoint
UPDATE "global_invoice_orders" g SET "amount_cents" = o."total_cents" FROM "orders" o WHERE o."number" = g."order_number";--> statement-breakpoint
ALTER TABLE "global_invoice_orders" ALTER COLUMN "amount_cents" SET NOT NULL;
