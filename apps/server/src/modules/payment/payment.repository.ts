import { and, eq, ne } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  type BillingDetails,
  checkoutSessions,
  fulfilments,
  paymentCustomers,
  providerEvents,
  robotDriverSubscriptions,
} from '../../db/schema.ts';

export type CheckoutSessionRow = typeof checkoutSessions.$inferSelect;
export type DriverSubscriptionRow = typeof robotDriverSubscriptions.$inferSelect;

/** The commerce tables (docs/architecture.md#data-model). Every method takes the executor. */
export const paymentRepository = {
  async customerOf(ex: Executor, userId: string) {
    const [row] = await ex.select().from(paymentCustomers).where(eq(paymentCustomers.userId, userId));
    return row;
  },

  /**
   * Records the user's customer unless one of the same provider is there already (two first calls
   * racing keep one); answers the one that is. A customer of the other provider (the deployment
   * switched from the sandbox to Stripe) is replaced: it cannot be charged any more.
   */
  async saveCustomer(ex: Executor, row: typeof paymentCustomers.$inferInsert) {
    await ex
      .insert(paymentCustomers)
      .values(row)
      .onConflictDoUpdate({
        target: paymentCustomers.userId,
        set: { customerId: row.customerId, provider: row.provider, createdAt: row.createdAt },
        setWhere: ne(paymentCustomers.provider, row.provider),
      });
    return this.customerOf(ex, row.userId);
  },

  async insertSession(ex: Executor, row: typeof checkoutSessions.$inferInsert): Promise<CheckoutSessionRow> {
    const [created] = await ex.insert(checkoutSessions).values(row).returning();
    if (!created) throw new Error('checkout session not recorded');
    return created;
  },

  async session(ex: Executor, id: string): Promise<CheckoutSessionRow | undefined> {
    const [row] = await ex.select().from(checkoutSessions).where(eq(checkoutSessions.id, id));
    return row;
  },

  async sessionOf(ex: Executor, id: string, userId: string): Promise<CheckoutSessionRow | undefined> {
    const [row] = await ex
      .select()
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.userId, userId)));
    return row;
  },

  /** The session, locked until the transaction ends: fulfilment and cancel queue on it. */
  async lockSession(ex: Executor, id: string): Promise<CheckoutSessionRow | undefined> {
    const [row] = await ex.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)).for('update');
    return row;
  },

  /** Claims the session's fulfilment; false when it was claimed before (the primary key decides). */
  async claimFulfilment(ex: Executor, sessionId: string, now: Date): Promise<boolean> {
    const rows = await ex
      .insert(fulfilments)
      .values({ sessionId, fulfilledAt: now })
      .onConflictDoNothing({ target: fulfilments.sessionId })
      .returning();
    return rows.length === 1;
  },

  async markPaid(
    ex: Executor,
    id: string,
    input: { billing: BillingDetails | null; subscriptionId: string | null; now: Date },
  ): Promise<void> {
    await ex
      .update(checkoutSessions)
      .set({
        status: 'paid',
        ...(input.billing ? { billing: input.billing } : {}),
        ...(input.subscriptionId ? { providerSubscriptionId: input.subscriptionId } : {}),
        updatedAt: input.now,
      })
      .where(eq(checkoutSessions.id, id));
  },

  /** Expires an open session; a paid one stays paid. Answers whether it changed. */
  async expire(ex: Executor, id: string, now: Date): Promise<boolean> {
    const rows = await ex
      .update(checkoutSessions)
      .set({ status: 'expired', updatedAt: now })
      .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.status, 'open')))
      .returning({ id: checkoutSessions.id });
    return rows.length === 1;
  },

  async insertDriverSubscription(ex: Executor, row: typeof robotDriverSubscriptions.$inferInsert) {
    const [created] = await ex.insert(robotDriverSubscriptions).values(row).returning();
    return created;
  },

  driverSubscriptionsOf(ex: Executor, userId: string): Promise<DriverSubscriptionRow[]> {
    return ex.select().from(robotDriverSubscriptions).where(eq(robotDriverSubscriptions.userId, userId));
  },

  async eventRecorded(ex: Executor, id: string): Promise<boolean> {
    const [row] = await ex.select({ id: providerEvents.id }).from(providerEvents).where(eq(providerEvents.id, id));
    return Boolean(row);
  },

  /** Records a webhook event id; false when it was recorded before (a replay). */
  async recordEvent(ex: Executor, row: typeof providerEvents.$inferInsert): Promise<boolean> {
    const rows = await ex
      .insert(providerEvents)
      .values(row)
      .onConflictDoNothing({ target: providerEvents.id })
      .returning({ id: providerEvents.id });
    return rows.length === 1;
  },
};
