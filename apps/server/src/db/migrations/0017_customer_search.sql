CREATE INDEX "users_email_prefix_idx" ON "users" USING btree ("email" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_name_prefix_idx" ON "users" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_company_prefix_idx" ON "users" USING btree (lower("company") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "payments_id_prefix_idx" ON "payments" USING btree (("id"::text) text_pattern_ops);--> statement-breakpoint
CREATE INDEX "payments_payment_intent_prefix_idx" ON "payments" USING btree (lower("payment_intent_id") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "robots_id_prefix_idx" ON "robots" USING btree (("id"::text) text_pattern_ops);--> statement-breakpoint
CREATE INDEX "support_requests_ticket_prefix_idx" ON "support_requests" USING btree (lower("ticket_id") text_pattern_ops);