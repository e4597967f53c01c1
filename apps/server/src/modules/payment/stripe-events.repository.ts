import { and, eq, gte, isNull, or, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.ts';
import {
  billingIntents,
  checkoutSessions,
  paymentRefunds,
  payments,
  providerSubscriptionMarks,
  reconciliationRuns,
} from '../../db/schema.ts';
import type { PaymentRow } from './payment.repository.ts';

export type RefundRow = typeof paymentRefunds.$inferSelect;
export type IntentRow = typeof billingIntents.$inferSelect;

/**
 * The tables of Stripe's events, refunds, disputes and the reconciliation (issue 31). Every method
 * takes the executor: the webhook applies an event in one transaction with its dedupe row.
 */
export const stripeEventsRepository = {
  /**
   * The newest paid plan-change session of this subscription whose charge has no payment row yet:
   * the invoice Stripe made for the change belongs to it (Payment Successful then shows its reference).
   */
  async unlinkedPlanChangeSession(ex: Executor, userId: string, subscriptionRef: string): Promise<string | undefined> {
    const rows = rowsOf<{ id: string }>(
      await ex.execute(sql`
        select s.id from ${checkoutSessions} s join ${billingIntents} i on i.id = s.intent_id
        where s.user_id = ${userId} and s.status = 'paid' and i.kind = 'plan_change' and i.status = 'done'
          and i.params->>'subscription_ref' = ${subscriptionRef}
          and not exists (select 1 from ${payments} p where p.session_id = s.id)
        order by s.created_at desc limit 1`),
    );
    return rows[0]?.id;
  },

  /**
   * Claims the newest state of a provider subscription: true when `appliedAt` (Stripe's event
   * `created`, seconds) is not older than the state applied before, and records it; false for an
   * older event arriving late. The row stays locked until the transaction ends.
   */
  async claimMark(ex: Executor, ref: string, appliedAt: number, status: string): Promise<boolean> {
    const rows = await ex
      .insert(providerSubscriptionMarks)
      .values({ subscriptionRef: ref, appliedAt, status })
      .onConflictDoUpdate({
        target: providerSubscriptionMarks.subscriptionRef,
        set: { appliedAt, status },
        setWhere: sql`${providerSubscriptionMarks.appliedAt} <= ${appliedAt}`,
      })
      .returning({ ref: providerSubscriptionMarks.subscriptionRef });
    return rows.length === 1;
  },

  /** The payment of a Stripe PaymentIntent (or whose refundable reference is it), locked for the transaction. */
  async lockPaymentByIntent(ex: Executor, paymentIntent: string): Promise<PaymentRow | undefined> {
    const [row] = await ex
      .select()
      .from(payments)
      .where(
        and(
          or(eq(payments.paymentIntentId, paymentIntent), eq(payments.providerRef, paymentIntent)),
          eq(payments.status, 'paid'),
        ),
      )
      .orderBy(payments.createdAt)
      .limit(1)
      .for('update');
    return row;
  },

  /** Stores the PaymentIntent of a payment known by its invoice (a subscription's first invoice). */
  async setIntentOfRef(ex: Executor, providerRef: string, paymentIntent: string): Promise<void> {
    await ex
      .update(payments)
      .set({ paymentIntentId: paymentIntent })
      .where(and(eq(payments.providerRef, providerRef), isNull(payments.paymentIntentId)));
  },

  async refundsOf(ex: Executor, paymentId: string): Promise<RefundRow[]> {
    return ex.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, paymentId));
  },

  /** Records a refund by the provider's id; false when it was recorded before. */
  async insertRefund(ex: Executor, row: typeof paymentRefunds.$inferInsert): Promise<boolean> {
    const rows = await ex
      .insert(paymentRefunds)
      .values(row)
      .onConflictDoNothing({ target: paymentRefunds.providerRefundId })
      .returning({ id: paymentRefunds.id });
    return rows.length === 1;
  },

  async insertIntent(ex: Executor, row: typeof billingIntents.$inferInsert): Promise<IntentRow> {
    const [created] = await ex.insert(billingIntents).values(row).returning();
    if (!created) throw new Error('billing intent not recorded');
    return created;
  },

  /**
   * What refunds of a payment in flight (intents written, the provider not yet answered, since
   * `since`) reserve: a second refund counts them as refunded.
   */
  async pendingRefunds(ex: Executor, paymentId: string, since: Date): Promise<number> {
    const rows = await ex
      .select({ params: billingIntents.params })
      .from(billingIntents)
      .where(
        and(
          eq(billingIntents.kind, 'refund'),
          eq(billingIntents.status, 'pending'),
          gte(billingIntents.createdAt, since),
          sql`${billingIntents.params}->>'payment_id' = ${paymentId}`,
        ),
      );
    return rows.reduce((n, r) => n + (Number(r.params.amount) || 0), 0);
  },

  async updateIntent(ex: Executor, id: string, set: Partial<typeof billingIntents.$inferInsert>): Promise<void> {
    await ex.update(billingIntents).set(set).where(eq(billingIntents.id, id));
  },

  /** Stripe payments since `since`: what the reconciliation compares with Stripe's invoices. */
  async stripePaymentsSince(ex: Executor, since: Date): Promise<PaymentRow[]> {
    return ex
      .select()
      .from(payments)
      .where(and(eq(payments.provider, 'stripe'), gte(payments.createdAt, since)));
  },

  async paymentByExternalId(ex: Executor, externalId: string): Promise<PaymentRow | undefined> {
    const [row] = await ex.select().from(payments).where(eq(payments.externalId, externalId));
    return row;
  },

  async paymentByIntent(ex: Executor, paymentIntent: string): Promise<PaymentRow | undefined> {
    const [row] = await ex
      .select()
      .from(payments)
      .where(or(eq(payments.paymentIntentId, paymentIntent), eq(payments.providerRef, paymentIntent)))
      .limit(1);
    return row;
  },

  async refundRecorded(ex: Executor, providerRefundId: string): Promise<boolean> {
    const [row] = await ex
      .select({ id: paymentRefunds.id })
      .from(paymentRefunds)
      .where(eq(paymentRefunds.providerRefundId, providerRefundId));
    return Boolean(row);
  },

  async startRun(ex: Executor, startedAt: Date) {
    const [row] = await ex.insert(reconciliationRuns).values({ startedAt }).returning();
    if (!row) throw new Error('reconciliation run not recorded');
    return row;
  },

  async finishRun(
    ex: Executor,
    id: string,
    set: { finishedAt: Date; repaired: number; unexplained: number; details: string[] },
  ) {
    await ex.update(reconciliationRuns).set(set).where(eq(reconciliationRuns.id, id));
  },

  async lastRun(ex: Executor) {
    const [row] = await ex
      .select()
      .from(reconciliationRuns)
      .orderBy(sql`${reconciliationRuns.startedAt} desc`)
      .limit(1);
    return row;
  },
};
