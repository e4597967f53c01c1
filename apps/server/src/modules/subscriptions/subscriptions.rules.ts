import { deriveTier, OverrideKind, type TierShort } from '@portal/contract';

/** What the tier rule reads of a tier subscription row. */
export interface TierRow {
  status: string;
  tier: string;
  overrideKind: number;
  startsAt: Date;
  /** null: open-ended */
  endsAt: Date | null;
  flexSlots: number;
}

export interface Entitlement<R extends TierRow> {
  tier: TierShort;
  /** the rows the tier is derived from: the grants in force if any, else the paid plans in force */
  pool: R[];
  /** the row whose tier it is (the latest started of its tier); undefined for Lite */
  deciding: R | undefined;
  /** flexible slots the deciding row grants (0 for Lite) */
  slots: number;
}

/** A row counts while it is active and its period has not ended (the lifecycle job may run late). */
export function inForce(row: Pick<TierRow, 'status' | 'endsAt'>, now: Date): boolean {
  return row.status === 'active' && (row.endsAt === null || row.endsAt.getTime() > now.getTime());
}

/**
 * The one tier rule of the server (docs/decisions/019): spec/001 §4's derivation (deriveTier) over
 * the subscriptions in force, where an operator's grant wins: while one is in force the tier and the
 * flexible slots are the grant's, whatever plan is paid for; otherwise the paid plan's. CHECK_REMAINING_TIME,
 * the time-package price, GetActiveUserSubscription and the slot count all read this.
 */
export function entitlementOf<R extends TierRow>(rows: readonly R[], now: Date): Entitlement<R> {
  const live = rows.filter((r) => inForce(r, now));
  const grants = live.filter((r) => r.overrideKind !== OverrideKind.None);
  const pool = grants.length > 0 ? grants : live;
  const tier = deriveTier({ user_subscriptions: pool.map((r) => ({ status: r.status, subscription_tier: r.tier })) });
  if (tier === 'Lite') return { tier, pool, deciding: undefined, slots: 0 };
  const deciding = pool
    .filter((r) => tier !== 'Pro' || r.tier === 'Pro Subscription')
    .sort((a, b) => b.startsAt.getTime() - a.startsAt.getTime())[0];
  return { tier, pool, deciding, slots: deciding?.flexSlots ?? 0 };
}
