import { and, asc, desc, eq, gte, isNull, lte, ne } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  type BillingDetails,
  billingIntents,
  billingPortalSessions,
  checkoutSessions,
  fulfilments,
  outbox,
  paymentCustomers,
  payments,
  providerEvents,
  robotDriverSubscriptions,
} from '../../db/schema.ts';

export type CheckoutSessionRow = typeof checkoutSessions.$inferSelect;
export type DriverSubscriptionRow = typeof robotDriverSubscriptions.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type CustomerRow = typeof paymentCustomers.$inferSelect;
export type IntentRow = typeof billingIntents.$inferSelect;
export type OutboxRow = typeof outbox.$inferSelect;

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
        // The other provider's card on file cannot be charged here; billing details are the customer's own.
        set: {
          customerId: row.customerId,
          provider: row.provider,
          cardLast4: row.cardLast4 ?? null,
          cardDeclines: row.cardDeclines ?? false,
          createdAt: row.createdAt,
        },
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

  /** The driver subscriptions a checkout session sold, in the order they were granted. */
  driverSubscriptionsOfSession(ex: Executor, sessionId: string): Promise<DriverSubscriptionRow[]> {
    return ex
      .select()
      .from(robotDriverSubscriptions)
      .where(eq(robotDriverSubscriptions.sessionId, sessionId))
      .orderBy(robotDriverSubscriptions.createdAt, robotDriverSubscriptions.id);
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

  async updateCustomer(
    ex: Executor,
    userId: string,
    set: { billing?: BillingDetails; cardLast4?: string; cardDeclines?: boolean },
  ): Promise<void> {
    await ex.update(paymentCustomers).set(set).where(eq(paymentCustomers.userId, userId));
  },

  /** Records a payment; with an external id, a replay records nothing and answers undefined. */
  async insertPayment(ex: Executor, row: typeof payments.$inferInsert): Promise<PaymentRow | undefined> {
    const [created] = await ex
      .insert(payments)
      .values(row)
      .onConflictDoNothing({ target: payments.externalId })
      .returning();
    return created;
  },

  /** The paid payment row of a checkout session (its first, should a provider ever record two). */
  async paymentOfSession(ex: Executor, sessionId: string): Promise<PaymentRow | undefined> {
    const [row] = await ex
      .select()
      .from(payments)
      .where(and(eq(payments.sessionId, sessionId), eq(payments.status, 'paid')))
      .orderBy(payments.createdAt)
      .limit(1);
    return row;
  },

  paymentsOf(ex: Executor, userId: string): Promise<PaymentRow[]> {
    return ex.select().from(payments).where(eq(payments.userId, userId)).orderBy(desc(payments.createdAt));
  },

  async payment(ex: Executor, id: string): Promise<PaymentRow | undefined> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return undefined;
    const [row] = await ex.select().from(payments).where(eq(payments.id, id));
    return row;
  },

  /** The payment, locked until the transaction ends: refunds of it queue here. */
  async lockPayment(ex: Executor, id: string): Promise<PaymentRow | undefined> {
    const [row] = await ex.select().from(payments).where(eq(payments.id, id)).for('update');
    return row;
  },

  async updatePayment(ex: Executor, id: string, set: Partial<typeof payments.$inferInsert>): Promise<void> {
    await ex.update(payments).set(set).where(eq(payments.id, id));
  },

  async insertPortalSession(ex: Executor, row: typeof billingPortalSessions.$inferInsert): Promise<void> {
    await ex.insert(billingPortalSessions).values(row);
  },

  async portalSession(ex: Executor, id: string) {
    const [row] = await ex.select().from(billingPortalSessions).where(eq(billingPortalSessions.id, id));
    return row;
  },

  // ---- billing intents (issue 31, docs/decisions/066): written before the provider is called ----

  async insertIntent(ex: Executor, row: typeof billingIntents.$inferInsert): Promise<IntentRow> {
    const [created] = await ex.insert(billingIntents).values(row).returning();
    if (!created) throw new Error('billing intent not recorded');
    return created;
  },

  async intent(ex: Executor, id: string): Promise<IntentRow | undefined> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return undefined;
    const [row] = await ex.select().from(billingIntents).where(eq(billingIntents.id, id));
    return row;
  },

  /** The intent, locked until the transaction ends: its Confirm and its Back queue here. */
  async lockIntent(ex: Executor, id: string): Promise<IntentRow | undefined> {
    const [row] = await ex.select().from(billingIntents).where(eq(billingIntents.id, id)).for('update');
    return row;
  },

  /** Settles a pending intent (done, failed, cancelled); false when it was settled before. */
  async settleIntent(
    ex: Executor,
    id: string,
    set: { status: 'done' | 'failed' | 'cancelled'; providerRef?: string; now: Date },
  ): Promise<boolean> {
    const rows = await ex
      .update(billingIntents)
      .set({ status: set.status, ...(set.providerRef ? { providerRef: set.providerRef } : {}), updatedAt: set.now })
      .where(and(eq(billingIntents.id, id), eq(billingIntents.status, 'pending')))
      .returning({ id: billingIntents.id });
    return rows.length === 1;
  },

  // ---- the outbox (outbox.ts) ---------------------------------------------------------------

  /** Enqueues work for after the commit; a second enqueue of the same key is a no-op. */
  async enqueue(ex: Executor, row: typeof outbox.$inferInsert): Promise<void> {
    await ex.insert(outbox).values(row).onConflictDoNothing({ target: outbox.key });
  },

  /** Work that is due, oldest first. */
  dueOutbox(ex: Executor, now: Date, limit: number): Promise<OutboxRow[]> {
    return ex
      .select()
      .from(outbox)
      .where(and(isNull(outbox.doneAt), lte(outbox.runAfter, now)))
      .orderBy(asc(outbox.runAfter))
      .limit(limit);
  },

  /**
   * Claims a due row for one run: its run_after moves to `leaseUntil`, so another instance (or a
   * second runner in this one) skips it meanwhile. False when someone else claimed it first.
   */
  async claimOutbox(ex: Executor, id: string, now: Date, leaseUntil: Date): Promise<boolean> {
    const rows = await ex
      .update(outbox)
      .set({ runAfter: leaseUntil })
      .where(and(eq(outbox.id, id), isNull(outbox.doneAt), lte(outbox.runAfter, now)))
      .returning({ id: outbox.id });
    return rows.length === 1;
  },

  async finishOutbox(
    ex: Executor,
    id: string,
    set: { doneAt?: Date; attempts: number; runAfter?: Date; lastError?: string | null },
  ): Promise<void> {
    await ex.update(outbox).set(set).where(eq(outbox.id, id));
  },

  /** Work not done yet, that failed at least `minAttempts` times, oldest first. */
  pendingOutbox(ex: Executor, minAttempts: number, limit: number): Promise<OutboxRow[]> {
    return ex
      .select()
      .from(outbox)
      .where(and(isNull(outbox.doneAt), gte(outbox.attempts, minAttempts)))
      .orderBy(asc(outbox.createdAt))
      .limit(limit);
  },

  async outboxByKey(ex: Executor, key: string): Promise<OutboxRow | undefined> {
    const [row] = await ex.select().from(outbox).where(eq(outbox.key, key));
    return row;
  },

  async paymentByExternalId(ex: Executor, externalId: string): Promise<PaymentRow | undefined> {
    const [row] = await ex.select().from(payments).where(eq(payments.externalId, externalId));
    return row;
  },

  /** Takes back a claim on a session whose provider call failed: it may be tried again. */
  async releaseFulfilment(ex: Executor, sessionId: string): Promise<void> {
    await ex.delete(fulfilments).where(eq(fulfilments.sessionId, sessionId));
  },

  /** When the session's fulfilment was claimed; undefined while it is not. */
  async fulfilmentClaimedAt(ex: Executor, sessionId: string): Promise<Date | undefined> {
    const [row] = await ex
      .select({ at: fulfilments.fulfilledAt })
      .from(fulfilments)
      .where(eq(fulfilments.sessionId, sessionId));
    return row?.at;
  },
};
