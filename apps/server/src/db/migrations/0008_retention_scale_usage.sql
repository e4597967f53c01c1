DROP INDEX "license_acceptances_user_idx";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_active_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "time_ledger" ADD COLUMN "robot_model" text;--> statement-breakpoint
-- Hand-written (drizzle cannot express it): keep the first acceptance of each user and version, so the unique index can be built (docs/decisions/027).
DELETE FROM "license_acceptances" a USING "license_acceptances" b WHERE a."user_id" = b."user_id" AND a."agreement_version" = b."agreement_version" AND (a."accepted_at", a."id") > (b."accepted_at", b."id");--> statement-breakpoint
CREATE UNIQUE INDEX "license_acceptances_user_version_idx" ON "license_acceptances" USING btree ("user_id","agreement_version");--> statement-breakpoint
CREATE INDEX "license_shares_owner_idx" ON "license_shares" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "time_ledger_user_created_idx" ON "time_ledger" USING btree ("user_id","created_at");