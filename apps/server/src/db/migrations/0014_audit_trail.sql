CREATE TABLE "audit_entries" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" text NOT NULL,
	"subject_user_id" uuid,
	"kind" text NOT NULL,
	"action" text NOT NULL,
	"target" text NOT NULL,
	"fields" jsonb NOT NULL,
	"personal_mac" text NOT NULL,
	"mac_key_id" text NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_personal" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"data" jsonb NOT NULL,
	"anonymised_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "audit_entries_subject_idx" ON "audit_entries" USING btree ("subject_user_id","seq");--> statement-breakpoint
CREATE INDEX "audit_entries_actor_idx" ON "audit_entries" USING btree ("actor_id","seq");--> statement-breakpoint
CREATE INDEX "audit_entries_action_idx" ON "audit_entries" USING btree ("action","seq");--> statement-breakpoint
CREATE INDEX "audit_entries_at_idx" ON "audit_entries" USING btree ("at");--> statement-breakpoint
-- Append-only (decision 069): entries are never updated or deleted; a side row changes only to the
-- anonymised marker. The code has no such path either; this stops a mistaken statement as well.
CREATE FUNCTION audit_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP;
END
$$;--> statement-breakpoint
CREATE TRIGGER audit_entries_append_only BEFORE UPDATE OR DELETE ON "audit_entries"
  FOR EACH ROW EXECUTE FUNCTION audit_refuse();--> statement-breakpoint
CREATE TRIGGER audit_entries_no_truncate BEFORE TRUNCATE ON "audit_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse();--> statement-breakpoint
CREATE TRIGGER audit_personal_no_delete BEFORE DELETE ON "audit_personal"
  FOR EACH ROW EXECUTE FUNCTION audit_refuse();--> statement-breakpoint
CREATE TRIGGER audit_personal_no_truncate BEFORE TRUNCATE ON "audit_personal"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse();--> statement-breakpoint
CREATE FUNCTION audit_personal_anonymise_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.seq <> OLD.seq OR NEW.anonymised_at IS NULL OR NEW.data <> '{"anonymised": true}'::jsonb THEN
    RAISE EXCEPTION 'audit_personal changes only by anonymisation';
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER audit_personal_anonymise_only BEFORE UPDATE ON "audit_personal"
  FOR EACH ROW EXECUTE FUNCTION audit_personal_anonymise_only();
