ALTER TABLE "licence_acceptances" RENAME TO "license_acceptances";--> statement-breakpoint
ALTER TABLE "asset_licences" RENAME TO "asset_licenses";--> statement-breakpoint
ALTER TABLE "licence_shares" RENAME TO "license_shares";--> statement-breakpoint
ALTER TABLE "robot_licences" RENAME TO "robot_licenses";--> statement-breakpoint
ALTER TABLE "flex_slots" RENAME COLUMN "licence_id" TO "license_id";--> statement-breakpoint
ALTER TABLE "asset_licenses" RENAME COLUMN "robot_licence_id" TO "robot_license_id";--> statement-breakpoint
ALTER TABLE "license_shares" RENAME COLUMN "licence_id" TO "license_id";--> statement-breakpoint
ALTER TABLE "robot_licenses" DROP CONSTRAINT "robot_licences_robot_id_unique";--> statement-breakpoint
ALTER TABLE "robot_licenses" DROP CONSTRAINT "robot_licences_pair_code_hash_unique";--> statement-breakpoint
ALTER TABLE "license_acceptances" DROP CONSTRAINT "licence_acceptances_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "license_acceptances" DROP CONSTRAINT "licence_acceptances_artifact_id_artifacts_id_fk";
--> statement-breakpoint
ALTER TABLE "flex_slots" DROP CONSTRAINT "flex_slots_licence_id_robot_licences_id_fk";
--> statement-breakpoint
ALTER TABLE "asset_licenses" DROP CONSTRAINT "asset_licences_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "asset_licenses" DROP CONSTRAINT "asset_licences_asset_id_assets_id_fk";
--> statement-breakpoint
ALTER TABLE "asset_licenses" DROP CONSTRAINT "asset_licences_robot_licence_id_robot_licences_id_fk";
--> statement-breakpoint
ALTER TABLE "license_shares" DROP CONSTRAINT "licence_shares_licence_id_robot_licences_id_fk";
--> statement-breakpoint
ALTER TABLE "license_shares" DROP CONSTRAINT "licence_shares_owner_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "license_shares" DROP CONSTRAINT "licence_shares_recipient_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "robot_licenses" DROP CONSTRAINT "robot_licences_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "robot_licenses" DROP CONSTRAINT "robot_licences_robot_id_robots_id_fk";
--> statement-breakpoint
DROP INDEX "licence_acceptances_user_idx";--> statement-breakpoint
DROP INDEX "asset_licences_user_idx";--> statement-breakpoint
DROP INDEX "licence_shares_recipient_idx";--> statement-breakpoint
DROP INDEX "licence_shares_licence_idx";--> statement-breakpoint
DROP INDEX "robot_licences_user_idx";--> statement-breakpoint
ALTER TABLE "license_acceptances" ADD CONSTRAINT "license_acceptances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "license_acceptances" ADD CONSTRAINT "license_acceptances_artifact_id_artifacts_id_fk" FOREIGN KEY ("artifact_id") REFERENCES "public"."artifacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flex_slots" ADD CONSTRAINT "flex_slots_license_id_robot_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."robot_licenses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "asset_licenses" ADD CONSTRAINT "asset_licenses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "asset_licenses" ADD CONSTRAINT "asset_licenses_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "asset_licenses" ADD CONSTRAINT "asset_licenses_robot_license_id_robot_licenses_id_fk" FOREIGN KEY ("robot_license_id") REFERENCES "public"."robot_licenses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "license_shares" ADD CONSTRAINT "license_shares_license_id_robot_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."robot_licenses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "license_shares" ADD CONSTRAINT "license_shares_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "license_shares" ADD CONSTRAINT "license_shares_recipient_id_users_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "robot_licenses" ADD CONSTRAINT "robot_licenses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "robot_licenses" ADD CONSTRAINT "robot_licenses_robot_id_robots_id_fk" FOREIGN KEY ("robot_id") REFERENCES "public"."robots"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "license_acceptances_user_idx" ON "license_acceptances" USING btree ("user_id","agreement_version");--> statement-breakpoint
CREATE INDEX "asset_licenses_user_idx" ON "asset_licenses" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "license_shares_recipient_idx" ON "license_shares" USING btree ("recipient_id","ends_at");--> statement-breakpoint
CREATE INDEX "license_shares_license_idx" ON "license_shares" USING btree ("license_id");--> statement-breakpoint
CREATE INDEX "robot_licenses_user_idx" ON "robot_licenses" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "robot_licenses" ADD CONSTRAINT "robot_licenses_robot_id_unique" UNIQUE("robot_id");--> statement-breakpoint
ALTER TABLE "robot_licenses" ADD CONSTRAINT "robot_licenses_pair_code_hash_unique" UNIQUE("pair_code_hash");