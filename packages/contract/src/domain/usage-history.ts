import { ONE_DAY_MS } from '../constants.ts';
/**
 * Dial-time history (issue 15, docs/decisions/029): minutes used per day and robot, read from the
 * ledger. A day is a calendar day in UTC, so one minute belongs to one day whoever asks.
 */

/** The ranges the history answers, in days ending today (UTC). */
export const USAGE_RANGES_DAYS = [30, 90, 365] as const;
export type UsageRangeDays = (typeof USAGE_RANGES_DAYS)[number];

/** How many characters of a robot's id name it when the robot is no longer the user's. */
export const SHORT_ROBOT_ID_LENGTH = 8;

/** A UTC day as `YYYY-MM-DD`. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export interface UsageRange {
  /** first day of the range, `YYYY-MM-DD` (UTC) */
  from: string;
  /** last day of the range, today (UTC) */
  to: string;
  /** the instant the first day starts (inclusive) */
  startMs: number;
  /** the instant after the last day ends (exclusive) */
  endMs: number;
}

/** The `days` UTC days that end with the day holding `nowMs`. */
export function usageRange(nowMs: number, days: number): UsageRange {
  const todayStart = Math.floor(nowMs / ONE_DAY_MS) * ONE_DAY_MS;
  const startMs = todayStart - (days - 1) * ONE_DAY_MS;
  const endMs = todayStart + ONE_DAY_MS;
  return { from: utcDay(startMs), to: utcDay(todayStart), startMs, endMs };
}

/** Every day from `from` to `to` (inclusive, `YYYY-MM-DD`, UTC), in order. */
export function daysBetween(from: string, to: string): string[] {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(start) || Number.isNaN(end)) return [];
  const days: string[] = [];
  for (let ms = start; ms <= end; ms += ONE_DAY_MS) days.push(utcDay(ms));
  return days;
}

/** The short id a robot is named by: the first characters of its id. */
export function shortRobotId(robotId: string): string {
  return robotId.slice(0, SHORT_ROBOT_ID_LENGTH);
}
