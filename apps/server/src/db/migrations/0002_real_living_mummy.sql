CREATE TABLE "artifacts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"asset_id" text NOT NULL,
	"os" text NOT NULL,
	"arch" text NOT NULL,
	"version_info" jsonb NOT NULL,
	"language" text DEFAULT '' NOT NULL,
	"store_key" text NOT NULL,
	"file_name" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"checksum" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "artifacts_store_key_unique" UNIQUE("store_key")
);
--> statement-breakpoint
CREATE TABLE "assets" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"author" text DEFAULT '' NOT NULL,
	"license" text DEFAULT '' NOT NULL,
	"make" text DEFAULT '' NOT NULL,
	"model" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "licence_acceptances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"agreement_version" text NOT NULL,
	"asset_id" text NOT NULL,
	"artifact_id" uuid,
	"accepted_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flex_slot_allowances" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"amount" integer NOT NULL,
	"source" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "flex_slot_allowances_amount" CHECK ("flex_slot_allowances"."amount" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "flex_slots" (
	"user_id" uuid NOT NULL,
	"slot_id" integer NOT NULL,
	"robot_id" text DEFAULT '' NOT NULL,
	"licence_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "flex_slots_user_id_slot_id_pk" PRIMARY KEY("user_id","slot_id")
);
--> statement-breakpoint
CREATE TABLE "asset_licences" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"asset_id" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"duration_s" integer NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"reseller_info" jsonb,
	"robot_licence_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "licence_shares" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"licence_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"recipient_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"stopped_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "robot_licences" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"asset_id" text DEFAULT '' NOT NULL,
	"robot_make" text DEFAULT '' NOT NULL,
	"robot_model" text NOT NULL,
	"robot_id" uuid,
	"is_flexible" boolean DEFAULT false NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"duration_s" integer NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"reseller_info" jsonb,
	"pair_code_hash" text,
	"pair_code_sealed" text,
	"pair_code_issued_at" timestamp with time zone,
	"paired_at" timestamp with time zone,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "robot_licences_robot_id_unique" UNIQUE("robot_id"),
	CONSTRAINT "robot_licences_pair_code_hash_unique" UNIQUE("pair_code_hash")
);
--> statement-breakpoint
CREATE TABLE "robots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"make" text NOT NULL,
	"model" text NOT NULL,
	"name" text NOT NULL,
	"hardware_hash" text NOT NULL,
	"available" boolean DEFAULT false NOT NULL,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"simulated" boolean DEFAULT true NOT NULL,
	"registered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"tier" text NOT NULL,
	"status" text DEFAULT 'pending_assignment' NOT NULL,
	"override_kind" integer DEFAULT 99 NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone,
	"stripe_id" text,
	"stripe_customer_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_stripe_id_unique" UNIQUE("stripe_id"),
	CONSTRAINT "subscriptions_override_kind" CHECK ("subscriptions"."override_kind" in (0, 1, 2, 99)),
	CONSTRAINT "subscriptions_no_active_lite" CHECK (not ("subscriptions"."status" = 'active' and "subscriptions"."tier" = 'Lite Subscription'))
);
--> statement-breakpoint
CREATE TABLE "time_accounts" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "time_ledger" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"perishable" integer DEFAULT 0 NOT NULL,
	"durable" integer DEFAULT 0 NOT NULL,
	"minutes" integer NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"robot_id" text,
	"reason" text DEFAULT '' NOT NULL,
	"idempotency_key" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "time_ledger_idempotency" UNIQUE("user_id","idempotency_key")
);
--> statement-breakpoint
ALTER TABLE "artifacts" ADD CONSTRAINT "artifacts_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licence_acceptances" ADD CONSTRAINT "licence_acceptances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licence_acceptances" ADD CONSTRAINT "licence_acceptances_artifact_id_artifacts_id_fk" FOREIGN KEY ("artifact_id") REFERENCES "public"."artifacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flex_slot_allowances" ADD CONSTRAINT "flex_slot_allowances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flex_slots" ADD CONSTRAINT "flex_slots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flex_slots" ADD CONSTRAINT "flex_slots_licence_id_robot_licences_id_fk" FOREIGN KEY ("licence_id") REFERENCES "public"."robot_licences"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "asset_licences" ADD CONSTRAINT "asset_licences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "asset_licences" ADD CONSTRAINT "asset_licences_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "asset_licences" ADD CONSTRAINT "asset_licences_robot_licence_id_robot_licences_id_fk" FOREIGN KEY ("robot_licence_id") REFERENCES "public"."robot_licences"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licence_shares" ADD CONSTRAINT "licence_shares_licence_id_robot_licences_id_fk" FOREIGN KEY ("licence_id") REFERENCES "public"."robot_licences"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licence_shares" ADD CONSTRAINT "licence_shares_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licence_shares" ADD CONSTRAINT "licence_shares_recipient_id_users_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "robot_licences" ADD CONSTRAINT "robot_licences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "robot_licences" ADD CONSTRAINT "robot_licences_robot_id_robots_id_fk" FOREIGN KEY ("robot_id") REFERENCES "public"."robots"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "robots" ADD CONSTRAINT "robots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_accounts" ADD CONSTRAINT "time_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_ledger" ADD CONSTRAINT "time_ledger_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "artifacts_asset_idx" ON "artifacts" USING btree ("asset_id");--> statement-breakpoint
CREATE INDEX "licence_acceptances_user_idx" ON "licence_acceptances" USING btree ("user_id","agreement_version");--> statement-breakpoint
CREATE INDEX "asset_licences_user_idx" ON "asset_licences" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "licence_shares_recipient_idx" ON "licence_shares" USING btree ("recipient_id","ends_at");--> statement-breakpoint
CREATE INDEX "licence_shares_licence_idx" ON "licence_shares" USING btree ("licence_id");--> statement-breakpoint
CREATE INDEX "robot_licences_user_idx" ON "robot_licences" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "robots_user_hardware_idx" ON "robots" USING btree ("user_id","hardware_hash");--> statement-breakpoint
CREATE INDEX "subscriptions_user_idx" ON "subscriptions" USING btree ("user_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "time_ledger_one_allocation" ON "time_ledger" USING btree ("user_id","period_start") WHERE "time_ledger"."kind" = 'allocation';--> statement-breakpoint
CREATE INDEX "time_ledger_user_period_idx" ON "time_ledger" USING btree ("user_id","period_start");