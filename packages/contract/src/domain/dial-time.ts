import { ONE_DAY_S } from '../constants.ts';
import type { UserTime } from '../time.ts';

/** Dial time of spec/001 §2, §9 and docs/architecture.md#robots-licenses-and-dial-time. Minutes are integers. */

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

export type UserTimePools = Pick<
  UserTime,
  'total_durable_time' | 'used_durable_time' | 'total_perishable_time' | 'used_perishable_time' | 'has_infinite_time'
>;

/** The two pools the dial panel's pie shows, as remaining minutes and percentages remaining. */
export function dialSummary(time: UserTimePools): DialSummary {
  const durable = pool(time.total_durable_time, time.used_durable_time);
  const perishable = pool(time.total_perishable_time, time.used_perishable_time);
  return { durable, perishable, remaining: durable.remaining + perishable.remaining, infinite: time.has_infinite_time };
}

/** Days until an epoch-ms date (spec/001 §9): (end - now) in seconds / 86400, rounded, never below 0. */
export function remainingDaysUntil(endMs: number, nowMs: number): number {
  return Math.max(0, Math.round((endMs - nowMs) / 1000 / ONE_DAY_S));
}

export interface Consumption {
  /** minutes taken from the perishable pool */
  perishable: number;
  /** minutes taken from the durable pool */
  durable: number;
  /** minutes that neither pool could cover */
  uncovered: number;
}

/** How reported use is charged: perishable time first, then durable (docs/architecture.md#robots-licenses-and-dial-time). */
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
