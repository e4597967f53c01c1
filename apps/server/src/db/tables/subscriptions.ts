import { OverrideKind, SUBSCRIPTION_STATUSES, TIERS } from '@portal/contract';
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A user's subscriptions. The tier is derived from the active ones (spec/001 §4, deriveTier): Lite is
 * the absence of an active subscription, so an active Lite row is refused by a check. Operators grant
 * rows today (override kinds 0, 1, 2); the commerce issue fills the provider ids from Stripe.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tier: text('tier', { enum: TIERS }).notNull(),
    status: text('status', { enum: SUBSCRIPTION_STATUSES }).notNull().default('pending_assignment'),
    /** 0 free trial, 1 override, 2 other, 99 none (paid) */
    overrideKind: integer('override_kind').notNull().default(OverrideKind.None),
    startsAt: ts('starts_at').notNull(),
    /** null: open-ended */
    endsAt: ts('ends_at'),
    stripeId: text('stripe_id').unique(),
    stripeCustomerId: text('stripe_customer_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('subscriptions_user_idx').on(t.userId, t.status),
    check('subscriptions_override_kind', sql`${t.overrideKind} in (0, 1, 2, 99)`),
    check('subscriptions_no_active_lite', sql`not (${t.status} = 'active' and ${t.tier} = 'Lite Subscription')`),
  ],
);
