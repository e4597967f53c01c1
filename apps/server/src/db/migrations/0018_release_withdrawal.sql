ALTER TABLE "artifacts" ADD COLUMN "withdrawn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "artifacts" ADD COLUMN "withdrawn_reason" text DEFAULT '' NOT NULL;