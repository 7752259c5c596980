-- Issue 35 (decision 061): shipments as objects (an order leaves in one or more, each with its lines), goods
-- received for backorders with their FIFO allocation, the delivery method (ground/air parcel or pickup at a
-- branch) and the pickup's code and collector. Backfill: every order that already has a tracking guide gets
-- shipment 1 with all its lines (carrier 'other', the free-text provider kept as its name), its backordered units
-- counted as received and all units as shipped, so existing orders keep showing exactly what they showed.
CREATE TABLE "backorder_allocations" (
	"receipt_id" bigint NOT NULL,
	"order_number" integer NOT NULL,
	"line_no" integer NOT NULL,
	"quantity" integer NOT NULL,
	CONSTRAINT "backorder_allocations_receipt_id_order_number_line_no_pk" PRIMARY KEY("receipt_id","order_number","line_no"),
	CONSTRAINT "backorder_allocations_quantity" CHECK ("backorder_allocations"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "goods_receipts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"product_code" text NOT NULL,
	"quantity" integer NOT NULL,
	"lot" text,
	"expires_on" date,
	"received_by" integer,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "goods_receipts_quantity" CHECK ("goods_receipts"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "shipment_lines" (
	"shipment_id" bigint NOT NULL,
	"order_number" integer NOT NULL,
	"line_no" integer NOT NULL,
	"quantity" integer NOT NULL,
	CONSTRAINT "shipment_lines_shipment_id_line_no_pk" PRIMARY KEY("shipment_id","line_no"),
	CONSTRAINT "shipment_lines_quantity" CHECK ("shipment_lines"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "shipments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_number" integer NOT NULL,
	"seq" integer NOT NULL,
	"carrier" text NOT NULL,
	"carrier_name" text NOT NULL,
	"tracking_number" text,
	"estimated_delivery" date,
	"shipped_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone,
	"created_by" integer
);
--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "received_quantity" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "shipped_quantity" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "cancelled_quantity" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "delayed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_method" text DEFAULT 'ground' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "pickup_branch" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "pickup_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "collected_by_name" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "collected_by_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "collected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "pickup_reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "backorder_allocations" ADD CONSTRAINT "backorder_allocations_receipt_id_goods_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."goods_receipts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "goods_receipts" ADD CONSTRAINT "goods_receipts_received_by_users_id_fk" FOREIGN KEY ("received_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_lines" ADD CONSTRAINT "shipment_lines_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_order_number_orders_number_fk" FOREIGN KEY ("order_number") REFERENCES "public"."orders"("number") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "goods_receipts_product_idx" ON "goods_receipts" USING btree ("product_code","received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "shipments_order_seq_idx" ON "shipments" USING btree ("order_number","seq");--> statement-breakpoint
INSERT INTO "shipments" ("order_number", "seq", "carrier", "carrier_name", "tracking_number", "estimated_delivery", "shipped_at", "delivered_at")
SELECT o."number", 1, 'other', coalesce(nullif(trim(o."delivery_provider"), ''), 'Paquetería'), o."tracking_guide", o."delivery_date",
  coalesce(o."shipped_at", o."updated_at"), CASE WHEN o."status" = 'delivered' THEN o."updated_at" END
FROM "orders" o
WHERE o."tracking_guide" IS NOT NULL AND trim(o."tracking_guide") <> '' AND o."status" IN ('shipped', 'delivered');--> statement-breakpoint
INSERT INTO "shipment_lines" ("shipment_id", "order_number", "line_no", "quantity")
SELECT s."id", l."order_number", l."line_no", l."quantity"
FROM "shipments" s JOIN "order_lines" l ON l."order_number" = s."order_number"
WHERE s."carrier" = 'other' AND l."quantity" > 0;--> statement-breakpoint
UPDATE "order_lines" l SET "received_quantity" = l."backordered_quantity", "shipped_quantity" = l."quantity"
FROM "shipments" s WHERE s."order_number" = l."order_number" AND s."carrier" = 'other';--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_shipped" CHECK ("order_lines"."received_quantity" >= 0 and "order_lines"."cancelled_quantity" >= 0 and "order_lines"."received_quantity" + "order_lines"."cancelled_quantity" <= "order_lines"."backordered_quantity" and "order_lines"."shipped_quantity" between 0 and "order_lines"."quantity" - "order_lines"."backordered_quantity" + "order_lines"."received_quantity");