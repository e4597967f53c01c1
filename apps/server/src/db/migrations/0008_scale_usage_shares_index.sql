ALTER TABLE "users" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "time_ledger" ADD COLUMN "robot_model" text;--> statement-breakpoint
CREATE INDEX "license_shares_owner_idx" ON "license_shares" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "time_ledger_user_created_idx" ON "time_ledger" USING btree ("user_id","created_at");