-- Institution accounts (issue 34, decision 058): single-use invitations (only the token's SHA-256 stored), the
-- institution's shared shipping addresses, and the institution a saved list or a quotation is shared with.
CREATE TABLE "institution_addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"institution_id" integer NOT NULL,
	"alias" text NOT NULL,
	"nombre_envio" text NOT NULL,
	"telefono_envio" text NOT NULL,
	"cp_envio" text NOT NULL,
	"calle_envio" text NOT NULL,
	"num_ext_envio" text NOT NULL,
	"num_int_envio" text DEFAULT '' NOT NULL,
	"colonia_envio" text NOT NULL,
	"municipio_envio" text NOT NULL,
	"ciudad_envio" text NOT NULL,
	"estado_envio" text NOT NULL,
	"pais_envio" text DEFAULT 'México' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "institution_invitations" (
	"id" serial PRIMARY KEY NOT NULL,
	"institution_id" integer NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"approval_limit_cents" bigint,
	"order_limit_cents" bigint,
	"monthly_limit_cents" bigint,
	"token_hash" text NOT NULL,
	"invited_by" integer,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" integer,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "institution_invitations_role_chk" CHECK ("institution_invitations"."role" in ('solicitante', 'aprobador', 'comprador', 'administrador'))
);
--> statement-breakpoint
ALTER TABLE "saved_lists" ADD COLUMN "institution_id" integer;--> statement-breakpoint
ALTER TABLE "quotations" ADD COLUMN "institution_id" integer;--> statement-breakpoint
ALTER TABLE "institution_addresses" ADD CONSTRAINT "institution_addresses_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "institution_invitations" ADD CONSTRAINT "institution_invitations_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "institution_invitations" ADD CONSTRAINT "institution_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "institution_invitations" ADD CONSTRAINT "institution_invitations_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "institution_addresses_institution_idx" ON "institution_addresses" USING btree ("institution_id");--> statement-breakpoint
CREATE UNIQUE INDEX "institution_invitations_token_idx" ON "institution_invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "institution_invitations_institution_idx" ON "institution_invitations" USING btree ("institution_id","created_at");--> statement-breakpoint
ALTER TABLE "saved_lists" ADD CONSTRAINT "saved_lists_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotations" ADD CONSTRAINT "quotations_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "saved_lists_institution_idx" ON "saved_lists" USING btree ("institution_id") WHERE "saved_lists"."institution_id" is not null;--> statement-breakpoint
CREATE INDEX "quotations_institution_idx" ON "quotations" USING btree ("institution_id") WHERE "quotations"."institution_id" is not null;--> statement-breakpoint
DROP INDEX "saved_lists_user_name_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "saved_lists_user_name_idx" ON "saved_lists" USING btree ("user_id",lower("name")) WHERE "saved_lists"."institution_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "saved_lists_institution_name_idx" ON "saved_lists" USING btree ("institution_id",lower("name")) WHERE "saved_lists"."institution_id" is not null;
