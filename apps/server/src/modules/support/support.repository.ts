import type { SupportStatus } from '@portal/contract';
import { and, asc, count, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { supportMessages, supportRequests, users } from '../../db/schema.ts';

export type SupportRequestRow = typeof supportRequests.$inferSelect;
export type SupportMessageRow = typeof supportMessages.$inferSelect;

/** A request with the count of its thread (the request itself included) and the people it names. */
export interface SupportRequestListed extends SupportRequestRow {
  messages: number;
  customerEmail: string;
  assigneeEmail: string | null;
}

/** A message with its staff author's address ('' when none). */
export interface SupportMessageListed extends SupportMessageRow {
  staffEmail: string | null;
}

const assignees = alias(users, 'assignees');
const staffAuthors = alias(users, 'staff_authors');

const threadLength =
  sql<number>`(select count(*) + 1 from ${supportMessages} where ${supportMessages.requestId} = ${supportRequests.id})`.mapWith(
    Number,
  );

/** The request columns with what the lists show beside them. */
const listed = {
  request: supportRequests,
  messages: threadLength,
  customerEmail: users.email,
  assigneeEmail: assignees.email,
};

function flatten(row: {
  request: SupportRequestRow;
  messages: number;
  customerEmail: string;
  assigneeEmail: string | null;
}): SupportRequestListed {
  return { ...row.request, messages: row.messages, customerEmail: row.customerEmail, assigneeEmail: row.assigneeEmail };
}

export const supportRepository = {
  async insert(db: Executor, row: typeof supportRequests.$inferInsert): Promise<SupportRequestRow> {
    const [created] = await db.insert(supportRequests).values(row).returning();
    if (!created) throw new Error('support request insert returned no row');
    return created;
  },

  async byTicket(db: Executor, ticketId: string): Promise<SupportRequestRow | undefined> {
    const [row] = await db.select().from(supportRequests).where(eq(supportRequests.ticketId, ticketId));
    return row;
  },

  /** The request of a ticket id with what the lists show; only the user's own when `userId` is given. */
  async listedByTicket(db: Executor, ticketId: string, userId?: string): Promise<SupportRequestListed | undefined> {
    const [row] = await db
      .select(listed)
      .from(supportRequests)
      .innerJoin(users, eq(users.id, supportRequests.userId))
      .leftJoin(assignees, eq(assignees.id, supportRequests.assigneeId))
      .where(
        and(
          eq(supportRequests.ticketId, ticketId),
          userId === undefined ? undefined : eq(supportRequests.userId, userId),
        ),
      );
    return row && flatten(row);
  },

  /** Locks the request of a ticket id until the transaction ends (a reply and a status change in turn). */
  async lockByTicket(tx: Executor, ticketId: string, userId?: string): Promise<SupportRequestRow | undefined> {
    const [row] = await tx
      .select()
      .from(supportRequests)
      .where(
        and(
          eq(supportRequests.ticketId, ticketId),
          userId === undefined ? undefined : eq(supportRequests.userId, userId),
        ),
      )
      .for('update');
    return row;
  },

  /** The user's requests, newest first. */
  async ofUser(db: Executor, userId: string, limit: number): Promise<SupportRequestListed[]> {
    const rows = await db
      .select(listed)
      .from(supportRequests)
      .innerJoin(users, eq(users.id, supportRequests.userId))
      .leftJoin(assignees, eq(assignees.id, supportRequests.assigneeId))
      .where(eq(supportRequests.userId, userId))
      .orderBy(desc(supportRequests.createdAt), desc(supportRequests.id))
      .limit(limit);
    return rows.map(flatten);
  },

  /** The inbox: newest first, filtered; `assigneeId` null is the unassigned ones. With the count of every match. */
  async inbox(
    db: Executor,
    filter: {
      status?: SupportStatus | undefined;
      assigneeId?: string | null | undefined;
      offset: number;
      limit: number;
    },
  ): Promise<{ rows: SupportRequestListed[]; total: number }> {
    const where: SQL | undefined = and(
      filter.status ? eq(supportRequests.status, filter.status) : undefined,
      filter.assigneeId === null
        ? isNull(supportRequests.assigneeId)
        : filter.assigneeId
          ? eq(supportRequests.assigneeId, filter.assigneeId)
          : undefined,
    );
    const [rows, [total]] = await Promise.all([
      db
        .select(listed)
        .from(supportRequests)
        .innerJoin(users, eq(users.id, supportRequests.userId))
        .leftJoin(assignees, eq(assignees.id, supportRequests.assigneeId))
        .where(where)
        .orderBy(desc(supportRequests.createdAt), desc(supportRequests.id))
        .offset(filter.offset)
        .limit(filter.limit),
      db.select({ n: count() }).from(supportRequests).where(where),
    ]);
    return { rows: rows.map(flatten), total: total?.n ?? 0 };
  },

  /** The thread after the request's own message, oldest first. */
  async messagesOf(db: Executor, requestId: string): Promise<SupportMessageListed[]> {
    const rows = await db
      .select({ message: supportMessages, staffEmail: staffAuthors.email })
      .from(supportMessages)
      .leftJoin(staffAuthors, eq(staffAuthors.id, supportMessages.staffUserId))
      .where(eq(supportMessages.requestId, requestId))
      .orderBy(asc(supportMessages.createdAt), asc(supportMessages.id));
    return rows.map((r) => ({ ...r.message, staffEmail: r.staffEmail }));
  },

  async insertMessage(tx: Executor, row: typeof supportMessages.$inferInsert): Promise<SupportMessageRow> {
    const [created] = await tx.insert(supportMessages).values(row).returning();
    if (!created) throw new Error('support message insert returned no row');
    return created;
  },

  async update(
    tx: Executor,
    id: string,
    set: Partial<Pick<SupportRequestRow, 'status' | 'assigneeId' | 'updatedAt' | 'lastMessageAt'>>,
  ): Promise<void> {
    await tx.update(supportRequests).set(set).where(eq(supportRequests.id, id));
  },

  /** Whether a user id is a staff account (an assignee must be one). */
  async staffEmail(db: Executor, userId: string): Promise<string | undefined> {
    const [row] = await db
      .select({ email: users.email, role: users.staffRole })
      .from(users)
      .where(eq(users.id, userId));
    return row?.role ? row.email : undefined;
  },
};
