import { MAX_SHARE_DURATION_S, ONE_DAY_MS, ONE_DAY_S, type SharedRobotEntry } from '@portal/contract';

/** The periods the Share form offers; `until` lets the owner pick the last day instead. */
export const SHARE_PERIODS = [
  { value: '1', label: '1 day', days: 1 },
  { value: '7', label: '7 days', days: 7 },
  { value: '30', label: '30 days', days: 30 },
  { value: '90', label: '90 days', days: 90 },
  { value: 'until', label: 'Until a date', days: 0 },
] as const;

export type SharePeriod = (typeof SHARE_PERIODS)[number]['value'];

export const SHARE_UNTIL_REQUIRED = 'Choose the last day of the share';
export const SHARE_UNTIL_PAST = 'Choose today or a later day';
export const SHARE_UNTIL_TOO_LATE = 'A share lasts at most 366 days';

/** A `YYYY-MM-DD` of the browser's calendar, as a native date input reads and writes it. */
export function localDateValue(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The last second of a `YYYY-MM-DD` day of the browser's calendar (23:59:59). */
function endOfLocalDay(value: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const start = new Date(year, month - 1, day);
  if (start.getFullYear() !== year || start.getMonth() !== month - 1 || start.getDate() !== day) return undefined;
  return new Date(year, month - 1, day, 23, 59, 59).getTime();
}

/** The last day the date input may offer: a share lasts at most MAX_SHARE_DURATION_S. */
export function latestUntilValue(now: number): string {
  return localDateValue(now + MAX_SHARE_DURATION_S * 1000 - ONE_DAY_MS);
}

/**
 * The duration SHARELICENSE gets, in whole seconds: a listed period, or up to the end of the chosen
 * day. An error says what is wrong with the chosen day.
 */
export function shareDurationS(
  period: SharePeriod,
  until: string,
  now: number,
): { durationS: number } | { error: string } {
  const listed = SHARE_PERIODS.find((p) => p.value === period);
  if (listed && listed.value !== 'until') return { durationS: listed.days * ONE_DAY_S };
  if (!until) return { error: SHARE_UNTIL_REQUIRED };
  const end = endOfLocalDay(until);
  if (end === undefined) return { error: SHARE_UNTIL_REQUIRED };
  const durationS = Math.ceil((end - now) / 1000);
  if (durationS < 1) return { error: SHARE_UNTIL_PAST };
  if (durationS > MAX_SHARE_DURATION_S) return { error: SHARE_UNTIL_TOO_LATE };
  return { durationS };
}

/** The shares of one license among the owner's, soonest to end first. */
export function sharesOfLicense(entries: readonly SharedRobotEntry[], licenseId: string): SharedRobotEntry[] {
  return entries
    .filter((e) => e.license.robot_license.license_id === licenseId)
    .sort((a, b) => a.license.robot_license.end_date - b.license.robot_license.end_date);
}
