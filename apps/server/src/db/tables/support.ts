import { SUPPORT_CATEGORIES, SUPPORT_STATUSES } from '@portal/contract';
import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Messages sent from /dashboard/support; `ticket_id` is what the user is told to quote. The first
 * message of the thread is `message`; every later one is a row of support_messages
 * (docs/decisions/074).
 */
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
    /** packages/contract/src/domain/support-status.ts */
    status: text('status', { enum: SUPPORT_STATUSES }).notNull().default('new'),
    /** the staff member answering it; a staff account that goes leaves the request unassigned, never deleted */
    assigneeId: uuid('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** the last message, status change or assignment */
    updatedAt: ts('updated_at').notNull().defaultNow(),
    /** the newest message of the thread (the request itself at first) */
    lastMessageAt: ts('last_message_at').notNull().defaultNow(),
  },
  (t) => [
    index('support_requests_user_idx').on(t.userId, t.createdAt),
    index('support_requests_inbox_idx').on(t.status, t.createdAt),
    index('support_requests_assignee_idx').on(t.assigneeId, t.createdAt),
    // the console finds a customer by a ticket id's prefix (issue 35)
    index('support_requests_ticket_prefix_idx').on(sql`lower(${t.ticketId}) text_pattern_ops`),
  ],
);

/** The thread of a request after its first message: the customer's answers and staff replies. */
export const supportMessages = pgTable(
  'support_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // The thread goes with its request (and so with the customer's account).
    requestId: uuid('request_id')
      .notNull()
      .references(() => supportRequests.id, { onDelete: 'cascade' }),
    author: text('author', { enum: ['customer', 'staff'] }).notNull(),
    /** the staff member who wrote it; null for the customer, an API key, or a staff account since removed */
    staffUserId: uuid('staff_user_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('support_messages_request_idx').on(t.requestId, t.createdAt)],
);
