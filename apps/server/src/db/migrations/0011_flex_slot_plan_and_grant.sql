ALTER TABLE "flex_slot_allowances" ADD COLUMN "plan_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "flex_slot_allowances" ADD COLUMN "granted_amount" integer;--> statement-breakpoint
-- Written by hand (docs/decisions/061): the count an operator set becomes the grant; a count set by
-- a subscription becomes the plan's. An operator's count also gets the plan's count of the deciding
-- subscription in force (the tier rule of subscriptions.rules.ts: grants before paid plans, Pro
-- before the rest, the latest started), so the count in force never shrinks here.
UPDATE "flex_slot_allowances" SET "plan_amount" = "amount" WHERE "source" = 'subscription';--> statement-breakpoint
UPDATE "flex_slot_allowances" AS a SET "granted_amount" = a."amount", "plan_amount" = coalesce((
  SELECT s."flex_slots" FROM "subscriptions" s
  WHERE s."user_id" = a."user_id" AND s."status" = 'active' AND (s."ends_at" IS NULL OR s."ends_at" > now())
  ORDER BY (s."override_kind" <> 99) DESC, (s."tier" = 'Pro Subscription') DESC, s."starts_at" DESC
  LIMIT 1
), 0) WHERE a."source" = 'operator';--> statement-breakpoint
UPDATE "flex_slot_allowances" SET "amount" = greatest("plan_amount", coalesce("granted_amount", 0));--> statement-breakpoint
ALTER TABLE "flex_slot_allowances" ADD CONSTRAINT "flex_slot_allowances_plan_amount" CHECK ("flex_slot_allowances"."plan_amount" between 0 and 100);--> statement-breakpoint
ALTER TABLE "flex_slot_allowances" ADD CONSTRAINT "flex_slot_allowances_granted_amount" CHECK ("flex_slot_allowances"."granted_amount" is null or "flex_slot_allowances"."granted_amount" between 0 and 100);--> statement-breakpoint
ALTER TABLE "flex_slot_allowances" ADD CONSTRAINT "flex_slot_allowances_effective" CHECK ("flex_slot_allowances"."amount" = greatest("flex_slot_allowances"."plan_amount", coalesce("flex_slot_allowances"."granted_amount", 0)));