import { MAX_FLEX_SLOTS } from '@portal/contract';
import { sql } from 'drizzle-orm';
import { check, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { robotLicenses } from './license.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * How many flexible slots a user has (user_slot_amount, docs/decisions/061): `amount` is the count in
 * force, the larger of the plan's count (the deciding subscription's, kept in step by
 * SubscriptionService.reconcile) and an operator's grant (slots:set, SetSlotAmount; null: none).
 */
export const flexSlotAllowances = pgTable(
  'flex_slot_allowances',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    planAmount: integer('plan_amount').notNull().default(0),
    grantedAmount: integer('granted_amount'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('flex_slot_allowances_amount', sql`${t.amount} between 0 and ${sql.raw(String(MAX_FLEX_SLOTS))}`),
    check('flex_slot_allowances_plan_amount', sql`${t.planAmount} between 0 and ${sql.raw(String(MAX_FLEX_SLOTS))}`),
    check(
      'flex_slot_allowances_granted_amount',
      sql`${t.grantedAmount} is null or ${t.grantedAmount} between 0 and ${sql.raw(String(MAX_FLEX_SLOTS))}`,
    ),
    check(
      'flex_slot_allowances_effective',
      sql`${t.amount} = greatest(${t.planAmount}, coalesce(${t.grantedAmount}, 0))`,
    ),
  ],
);

/** The user's flexible slots: each holds one catalogue robot id ('' when empty) and the license made for it. */
export const flexSlots = pgTable(
  'flex_slots',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    slotId: integer('slot_id').notNull(),
    robotId: text('robot_id').notNull().default(''),
    licenseId: uuid('license_id').references(() => robotLicenses.id, { onDelete: 'set null' }),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.slotId] })],
);
