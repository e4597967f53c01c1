DROP INDEX "license_shares_license_idx";--> statement-breakpoint
ALTER TABLE "license_shares" ALTER COLUMN "recipient_id" DROP NOT NULL;--> statement-breakpoint
-- Added without NOT NULL, filled from the recipients' accounts, then made NOT NULL: existing shares keep working.
ALTER TABLE "license_shares" ADD COLUMN "recipient_email" text;--> statement-breakpoint
UPDATE "license_shares" SET "recipient_email" = "users"."email" FROM "users" WHERE "users"."id" = "license_shares"."recipient_id";--> statement-breakpoint
ALTER TABLE "license_shares" ALTER COLUMN "recipient_email" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "license_shares_email_idx" ON "license_shares" USING btree ("recipient_email");--> statement-breakpoint
CREATE INDEX "license_shares_license_idx" ON "license_shares" USING btree ("license_id","recipient_email");
