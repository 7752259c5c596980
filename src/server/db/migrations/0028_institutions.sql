-- Institution accounts (issue 34, decision 057): institutions, their members and roles, the institution a session
-- buys for, and the institution an order was placed for.
CREATE TABLE "institution_members" (
	"institution_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" text NOT NULL,
	"approval_limit_cents" bigint,
	"order_limit_cents" bigint,
	"monthly_limit_cents" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone,
	CONSTRAINT "institution_members_institution_id_user_id_pk" PRIMARY KEY("institution_id","user_id"),
	CONSTRAINT "institution_members_role_chk" CHECK ("institution_members"."role" in ('solicitante', 'aprobador', 'comprador', 'administrador'))
);
--> statement-breakpoint
CREATE TABLE "institutions" (
	"id" serial PRIMARY KEY NOT NULL,
	"razon_social" text NOT NULL,
	"rfc" text NOT NULL,
	"regimen_fiscal" text NOT NULL,
	"cp" text NOT NULL,
	"uso_cfdi" text DEFAULT 'G03' NOT NULL,
	"billing_email" text DEFAULT '' NOT NULL,
	"requires_purchase_order" boolean DEFAULT false NOT NULL,
	"cost_centre_label" text DEFAULT 'Centro de costos' NOT NULL,
	"project_label" text DEFAULT 'Proyecto o convenio' NOT NULL,
	"credit_limit_cents" bigint,
	"credit_days" integer,
	"verified_at" timestamp with time zone,
	"verified_by" integer,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "institutions_credit_chk" CHECK (("institutions"."credit_limit_cents" is null) = ("institutions"."credit_days" is null) and coalesce("institutions"."credit_limit_cents", 0) >= 0)
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "institution_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "institution_id" integer;--> statement-breakpoint
ALTER TABLE "institution_members" ADD CONSTRAINT "institution_members_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "institution_members" ADD CONSTRAINT "institution_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "institutions" ADD CONSTRAINT "institutions_verified_by_users_id_fk" FOREIGN KEY ("verified_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "institutions" ADD CONSTRAINT "institutions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "institution_members_user_idx" ON "institution_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "institutions_rfc_idx" ON "institutions" USING btree ("rfc");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_institution_idx" ON "orders" USING btree ("institution_id","created_at") WHERE "orders"."institution_id" is not null;