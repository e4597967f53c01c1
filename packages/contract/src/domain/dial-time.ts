import type { TierShort } from '../constants.ts';
import type { UserTime } from '../time.ts';
import { remainingDays } from './session.ts';

/** Dial time of spec/001 §2, §9 and DESIGN §4. Minutes are integers. */

/** Remaining minutes: total minus used, never below 0. */
export function remainingMinutes(total: number, used: number): number {
  return Math.max(0, total - used);
}

/** Percentage (0-100) of a pool that remains; an empty pool has 0 % left. */
export function percentRemaining(total: number, used: number): number {
  if (total <= 0) return 0;
  return Math.min(100, (remainingMinutes(total, used) / total) * 100);
}

export interface PoolSummary {
  total: number;
  used: number;
  remaining: number;
  percentRemaining: number;
}

export interface DialSummary {
  durable: PoolSummary;
  perishable: PoolSummary;
  /** durable plus perishable remaining minutes */
  remaining: number;
  infinite: boolean;
}

function pool(total: number, used: number): PoolSummary {
  return { total, used, remaining: remainingMinutes(total, used), percentRemaining: percentRemaining(total, used) };
}

type UserTimePools = Pick<
  UserTime,
  'total_durable_time' | 'used_durable_time' | 'total_perishable_time' | 'used_perishable_time' | 'has_infinite_time'
>;

/** The two pools the dial panel's pie shows, as remaining minutes and percentages remaining. */
export function dialSummary(time: UserTimePools): DialSummary {
  const durable = pool(time.total_durable_time, time.used_durable_time);
  const perishable = pool(time.total_perishable_time, time.used_perishable_time);
  return { durable, perishable, remaining: durable.remaining + perishable.remaining, infinite: time.has_infinite_time };
}

export const DIAL_PANEL_TEXT = {
  authRequired: 'Authentication required',
  loadFailed: 'Failed to load dial time information',
  infiniteBar: 'Infinite Dial Time',
  infinite: 'You have infinite dial time with your Pro subscription.',
  upgrade: 'Upgrade to Pro',
} as const;

export type DialPanelState =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'infinite' }
  | { kind: 'normal'; summary: DialSummary; showUpgrade: boolean };

/**
 * Which of the dial panel's four states to show. Pro or infinite time wins over the numbers; Lite
 * users also see the "Upgrade to Pro" box.
 */
export function dialPanelState(input: {
  loading: boolean;
  /** no stored session token or email */
  unauthenticated?: boolean;
  error?: unknown;
  tier: TierShort;
  userTime?: UserTimePools | undefined;
}): DialPanelState {
  if (input.unauthenticated) return { kind: 'error', message: DIAL_PANEL_TEXT.authRequired };
  if (input.loading) return { kind: 'loading' };
  if (input.error || !input.userTime) return { kind: 'error', message: DIAL_PANEL_TEXT.loadFailed };
  if (input.tier === 'Pro' || input.userTime.has_infinite_time) return { kind: 'infinite' };
  return { kind: 'normal', summary: dialSummary(input.userTime), showUpgrade: input.tier === 'Lite' };
}

/** Days until an epoch-ms date, by spec/001 §9's rule (reuses remainingDays, which works in seconds). */
export function remainingDaysUntil(endMs: number, nowMs: number): number {
  return remainingDays(endMs / 1000, nowMs / 1000);
}

export interface Consumption {
  /** minutes taken from the perishable pool */
  perishable: number;
  /** minutes taken from the durable pool */
  durable: number;
  /** minutes that neither pool could cover */
  uncovered: number;
}

/** How reported use is charged: perishable time first, then durable (DESIGN §4). */
export function consumeMinutes(
  time: Pick<UserTime, 'total_durable_time' | 'used_durable_time' | 'total_perishable_time' | 'used_perishable_time'>,
  minutes: number,
): Consumption {
  const fromPerishable = Math.min(minutes, remainingMinutes(time.total_perishable_time, time.used_perishable_time));
  const fromDurable = Math.min(
    minutes - fromPerishable,
    remainingMinutes(time.total_durable_time, time.used_durable_time),
  );
  return { perishable: fromPerishable, durable: fromDurable, uncovered: minutes - fromPerishable - fromDurable };
}
