import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { supportRequests } from '../../db/schema.ts';

export type SupportRequestRow = typeof supportRequests.$inferSelect;

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
};
