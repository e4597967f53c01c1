import { SUPPORT_CATEGORIES } from '@portal/contract';
import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Messages sent from /dashboard/support; `ticket_id` is what the user is told to quote. */
export const supportRequests = pgTable(
  'support_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ticketId: text('ticket_id').notNull().unique(),
    // Deleting an account deletes what it wrote, as the privacy policy promises.
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** the address to answer, as it was when the request was sent */
    email: text('email').notNull(),
    category: text('category', { enum: SUPPORT_CATEGORIES }).notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    robotModel: text('robot_model'),
    status: text('status', { enum: ['open', 'answered', 'closed'] })
      .notNull()
      .default('open'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('support_requests_user_idx').on(t.userId, t.createdAt),
    // the console finds a customer by a ticket id's prefix (issue 35)
    index('support_requests_ticket_prefix_idx').on(sql`lower(${t.ticketId}) text_pattern_ops`),
  ],
);
