-- The counters were keyed by account id; they are now keyed by a hash of the address (docs/decisions/026).
-- They are short-lived counters: the old rows are dropped rather than carried over.
DELETE FROM "login_failures";--> statement-breakpoint
ALTER TABLE "login_failures" DROP CONSTRAINT "login_failures_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "login_failures" DROP CONSTRAINT "login_failures_user_id_source_pk";--> statement-breakpoint
ALTER TABLE "login_failures" ADD COLUMN "account_key" text NOT NULL;--> statement-breakpoint
ALTER TABLE "login_failures" ADD COLUMN "last_success_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "login_failures" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "login_failures" ADD CONSTRAINT "login_failures_account_key_source_pk" PRIMARY KEY("account_key","source");--> statement-breakpoint
CREATE INDEX "login_failures_updated_idx" ON "login_failures" USING btree ("updated_at");
