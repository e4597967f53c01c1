import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sessions, users } from './accounts.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Tickets to open the live event stream (docs/decisions/031): single use, seconds long. Kept in the
 * database so whichever instance the stream request reaches can redeem a ticket another issued. Only
 * a hash of the ticket is stored; redeeming deletes the row.
 */
export const eventTickets = pgTable(
  'event_tickets',
  {
    /** SHA-256 of the ticket, hex */
    hash: text('hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('event_tickets_session_idx').on(t.sessionId)],
);
