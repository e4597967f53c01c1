import { deriveTier, type TierName, type TierShort } from '@portal/contract';
import { and, eq, gt, isNull, or } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { subscriptions, users } from '../../db/schema.ts';

export type SubscriptionRow = typeof subscriptions.$inferSelect;

export interface TierInfo {
  tier: TierShort;
  /** where the dial-time periods are counted from: the deciding subscription's start, else the join date */
  anchor: Date;
  /** the deciding subscription's end; null for Lite or an open-ended one */
  endsAt: Date | null;
}

/**
 * Subscriptions as the tier sees them (spec/001 §4 via deriveTier). A row counts as active while its
 * status is active and its end, if any, has not passed: the lifecycle job may run late.
 */
export const subscriptionRepository = {
  async active(db: Executor, userId: string, now: Date): Promise<SubscriptionRow[]> {
    return db
      .select()
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.userId, userId),
          eq(subscriptions.status, 'active'),
          or(isNull(subscriptions.endsAt), gt(subscriptions.endsAt, now)),
        ),
      );
  },

  /** The user's tier and the period anchor of their dial time; undefined for an unknown user. */
  async tierOf(db: Executor, userId: string, now: Date): Promise<TierInfo | undefined> {
    const [user] = await db.select({ joinedAt: users.joinedAt }).from(users).where(eq(users.id, userId));
    if (!user) return undefined;
    const active = await this.active(db, userId, now);
    const tier = deriveTier({
      user_subscriptions: active.map((s) => ({ status: s.status, subscription_tier: s.tier })),
    });
    if (tier === 'Lite') return { tier, anchor: user.joinedAt, endsAt: null };
    // The subscription that decides the tier; of several, the latest started (its period is current).
    const deciding = active
      .filter((s) => tier !== 'Pro' || s.tier === 'Pro Subscription')
      .sort((a, b) => b.startsAt.getTime() - a.startsAt.getTime())[0]!;
    return { tier, anchor: deciding.startsAt, endsAt: deciding.endsAt };
  },

  async insert(db: Executor, row: typeof subscriptions.$inferInsert): Promise<SubscriptionRow> {
    const [created] = await db.insert(subscriptions).values(row).returning();
    if (!created) throw new Error('subscription insert returned no row');
    return created;
  },

  /**
   * An operator's grant: the user's active subscriptions end and the new one starts now. Granting
   * Lite only ends them (Lite is the absence of a subscription).
   */
  async grant(
    db: Executor,
    input: { userId: string; tier: TierName; overrideKind: number; now: Date; endsAt: Date | null },
  ): Promise<SubscriptionRow | undefined> {
    await db
      .update(subscriptions)
      .set({ status: 'cancelled', updatedAt: input.now })
      .where(and(eq(subscriptions.userId, input.userId), eq(subscriptions.status, 'active')));
    if (input.tier === 'Lite Subscription') return undefined;
    const [row] = await db
      .insert(subscriptions)
      .values({
        userId: input.userId,
        tier: input.tier,
        status: 'active',
        overrideKind: input.overrideKind,
        startsAt: input.now,
        endsAt: input.endsAt,
        createdAt: input.now,
        updatedAt: input.now,
      })
      .returning();
    return row;
  },
};
