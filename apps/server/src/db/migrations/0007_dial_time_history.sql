ALTER TABLE "time_ledger" ADD COLUMN "robot_model" text;--> statement-breakpoint
CREATE INDEX "time_ledger_user_created_idx" ON "time_ledger" USING btree ("user_id","created_at");