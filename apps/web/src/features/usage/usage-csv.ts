import type { UsageHistory } from '@portal/contract';
import { usageRows } from './usage-series';
import { USAGE_TEXT } from './usage-text';

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break, quotes doubled.
 * A text that a spreadsheet would run as a formula (=, +, -, @, tab, carriage return first) is
 * prefixed with an apostrophe: a robot's name is the user's own text, but a CSV is opened by others.
 */
export function csvField(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows to CSV text: CRLF between records, as RFC 4180 says. */
export function toCsv(rows: readonly (readonly (string | number)[])[]): string {
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n');
}

const { columns } = USAGE_TEXT;

/** The history's table as CSV: one line per day and robot with use. */
export function usageCsv(history: Pick<UsageHistory, 'robots' | 'usage'>): string {
  const header = [columns.day, columns.robot, columns.model, columns.robotId, columns.minutes];
  return toCsv([header, ...usageRows(history).map((r) => [r.day, r.robot, r.model, r.robotId, r.minutes])]);
}

/** `dial-time-usage-30-days-to-2025-03-10.csv` */
export const usageCsvName = (days: number, to: string) => `dial-time-usage-${days}-days-to-${to}.csv`;
