-- The dashboard's aggregates (issue 36, decision 065; measured by npm run bench:dashboard). Sales are ledger rows of
-- these kinds in a time window; quotations are those issued in the last 30 days; what sold is read from the lines of
-- the orders sold and their products' groups — covered by the two last indexes, so those reads never touch the
-- wide rows of order_lines (descriptions) and products (descriptions, HTML): an index-only scan instead.
CREATE INDEX IF NOT EXISTS "order_ledger_sales_idx" ON "order_ledger" USING btree ("created_at") WHERE "order_ledger"."kind" in ('charge', 'credit_sale', 'refund_due', 'refund_failed');--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "quotations_created_idx" ON "quotations" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "order_lines_sold_idx" ON "order_lines" USING btree ("order_number","product_code","unit_price_cents","quantity");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "products_group_of_code_idx" ON "products" USING btree ("code","group_clas");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "orders_status_created_idx" ON "orders" USING btree ("status","created_at");
