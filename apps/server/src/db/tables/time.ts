import { LEDGER_KINDS } from '@portal/contract';
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * One row per user that every dial-time write locks (SELECT ... FOR UPDATE) before reading the
 * ledger, so concurrent writes for one user run one after another (docs/decisions/008).
 */
export const timeAccounts = pgTable('time_accounts', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * The append-only dial-time ledger: allocations, expiries, purchases, grants and use, in whole
 * minutes. Balances are sums (see packages/contract/src/domain/time-ledger.ts); rows are never
 * updated or deleted.
 */
export const timeLedger = pgTable(
  'time_ledger',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: LEDGER_KINDS }).notNull(),
    /** signed change of the perishable pool */
    perishable: integer('perishable').notNull().default(0),
    /** signed change of the durable pool */
    durable: integer('durable').notNull().default(0),
    minutes: integer('minutes').notNull(),
    /** the perishable period the entry belongs to */
    periodStart: ts('period_start').notNull(),
    /** the robot dialled (use) */
    robotId: text('robot_id'),
    /**
     * use: the dialled robot's model when it was dialled, so the history can name a robot the user
     * no longer owns (docs/decisions/029); null for a robot the caller could not see, and for rows
     * written before this column existed
     */
    robotModel: text('robot_model'),
    reason: text('reason').notNull().default(''),
    /** `use:<key>` or `add:<key>`: a replay with the same key writes nothing */
    idempotencyKey: text('idempotency_key'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    unique('time_ledger_idempotency').on(t.userId, t.idempotencyKey),
    uniqueIndex('time_ledger_one_allocation').on(t.userId, t.periodStart).where(sql`${t.kind} = 'allocation'`),
    index('time_ledger_user_period_idx').on(t.userId, t.periodStart),
    // the dial-time history reads one user's rows of a range of days
    index('time_ledger_user_created_idx').on(t.userId, t.createdAt),
  ],
);
