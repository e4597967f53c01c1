import { TIER_SHORT, type TierName, type TierShort } from '../constants.ts';

/** The part of GetActiveUserSubscription's answer that decides the tier. */
export interface ActiveSubscriptionsLike {
  user_subscriptions?: readonly { status: string; subscription_tier?: string }[] | undefined;
  error?: { Success: boolean } | undefined;
}

const PRO: TierName = 'Pro Subscription';

/**
 * spec/001 §4 tier derivation: no data or an error gives Lite; an active subscription with tier
 * "Pro Subscription" gives Pro; any other active one gives Standard; no active one gives Lite.
 * The spec's "any other" is taken literally, so the server must never store an active
 * "Lite Subscription" row (Lite is the absence of one).
 */
export function deriveTier(data: ActiveSubscriptionsLike | Error | null | undefined): TierShort {
  if (!data || data instanceof Error) return 'Lite';
  if (data.error && !data.error.Success) return 'Lite';
  const active = (data.user_subscriptions ?? []).filter((s) => s.status === 'active');
  if (active.length === 0) return 'Lite';
  return active.some((s) => s.subscription_tier === PRO) ? 'Pro' : 'Standard';
}

/**
 * Rank of a tier: Lite 0, Standard 1, Pro 2. Takes the short name or the full one ("Pro
 * Subscription"), in any case; anything else is -1.
 */
export function tierIndex(tier: string | null | undefined): number {
  const word = (tier ?? '')
    .trim()
    .toLowerCase()
    .replace(/\s+subscription$/, '');
  return TIER_SHORT.findIndex((t) => t.toLowerCase() === word);
}

/**
 * Pro users have infinite dial time and cannot buy more (spec/001 §6): the dial panel hides Buy More
 * Time, and checkout must refuse a time package to Pro by the same rule.
 */
export function canPurchaseTime(tier: TierShort): boolean {
  return tier !== 'Pro';
}
