import { daysBetween, type UsageEventKind, type UsageHistory, type UsageRobot } from '@portal/contract';
import { USAGE_TEXT } from './usage-text';

/**
 * The dial-time history as the screen shows it (docs/decisions/029): the server answers days with
 * use only; the chart needs every day of the range, one value per robot.
 */

/**
 * How a robot is named: the user's robot by its name; any other by the model the ledger recorded
 * and a short id, or the short id alone when no model was recorded.
 */
export function robotLabel(robot: Pick<UsageRobot, 'owned' | 'name' | 'model' | 'short_id'>): string {
  if (robot.owned && robot.name.trim()) return robot.name.trim();
  return `${robot.model.trim() || USAGE_TEXT.unknownModel} · ${robot.short_id}`;
}

/** The chart's data key of the n-th robot (robot ids are not safe as keys: recharts reads dots as paths). */
export const seriesKey = (index: number) => `r${index}`;

export interface ChartDay {
  day: string;
  /** minutes per robot, by `seriesKey` */
  [series: string]: string | number;
}

/** One row per day of the range, oldest first, with every robot's minutes (0 on days without use). */
export function chartDays(history: Pick<UsageHistory, 'from' | 'to' | 'robots' | 'usage'>): ChartDay[] {
  const index = new Map(history.robots.map((r, i) => [r.robot_id, i]));
  const byDay = new Map<string, ChartDay>();
  for (const day of daysBetween(history.from, history.to)) {
    const row: ChartDay = { day };
    for (let i = 0; i < history.robots.length; i++) row[seriesKey(i)] = 0;
    byDay.set(day, row);
  }
  for (const use of history.usage) {
    const row = byDay.get(use.day);
    const i = index.get(use.robot_id);
    if (!row || i === undefined) continue;
    row[seriesKey(i)] = Number(row[seriesKey(i)] ?? 0) + use.minutes;
  }
  return [...byDay.values()];
}

export interface UsageTableRow {
  day: string;
  robot: string;
  model: string;
  robotId: string;
  minutes: number;
}

/** The table and the CSV: one row per day and robot with use, newest day first, then most minutes. */
export function usageRows(history: Pick<UsageHistory, 'robots' | 'usage'>): UsageTableRow[] {
  const robots = new Map(history.robots.map((r) => [r.robot_id, r]));
  return history.usage
    .map((u) => {
      const robot = robots.get(u.robot_id);
      return {
        day: u.day,
        robot: robot ? robotLabel(robot) : u.robot_id,
        model: robot?.model ?? '',
        robotId: u.robot_id,
        minutes: u.minutes,
      };
    })
    .sort((a, b) => b.day.localeCompare(a.day) || b.minutes - a.minutes || a.robot.localeCompare(b.robot));
}

export const eventLabel = (kind: UsageEventKind) => USAGE_TEXT.events[kind];

/** `2025-03-05` -> `05/03/2025` (en-GB, as the portal's other dates). */
export function formatDay(day: string): string {
  const [y, m, d] = day.split('-');
  return y && m && d ? `${d}/${m}/${y}` : day;
}

/** `2025-03-05` -> `5 Mar`, for the chart's axis. */
export function formatAxisDay(day: string): string {
  const ms = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(ms)) return day;
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(ms);
}

export const formatMinutes = (n: number) => `${n.toLocaleString('en-GB')} ${n === 1 ? 'minute' : 'minutes'}`;
