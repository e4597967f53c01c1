import { describe, expect, it } from 'vitest';
import { ONE_DAY_MS } from '../constants.ts';
import { daysBetween, shortRobotId, usageRange } from './usage-history.ts';

const at = (iso: string) => Date.parse(iso);

describe('usageRange', () => {
  it.each([
    ['2025-03-10T12:00:00Z', 30, '2025-02-09', '2025-03-10'],
    ['2025-03-10T00:00:00Z', 30, '2025-02-09', '2025-03-10'],
    ['2025-03-10T23:59:59.999Z', 1, '2025-03-10', '2025-03-10'],
    // a leap year: 29 February is one of the days
    ['2024-03-01T08:00:00Z', 2, '2024-02-29', '2024-03-01'],
    ['2025-01-05T10:00:00Z', 90, '2024-10-08', '2025-01-05'],
    ['2025-12-31T10:00:00Z', 365, '2025-01-01', '2025-12-31'],
    ['2024-12-31T10:00:00Z', 365, '2024-01-02', '2024-12-31'],
  ])('%s, %i days: %s to %s', (now, days, from, to) => {
    const range = usageRange(at(now), days);
    expect(range).toEqual({ from, to, startMs: at(`${from}T00:00:00Z`), endMs: at(`${to}T00:00:00Z`) + ONE_DAY_MS });
    expect(daysBetween(range.from, range.to)).toHaveLength(days);
  });
});

describe('daysBetween', () => {
  it.each([
    ['2025-03-10', '2025-03-10', ['2025-03-10']],
    ['2025-02-27', '2025-03-01', ['2025-02-27', '2025-02-28', '2025-03-01']],
    ['2024-02-28', '2024-03-01', ['2024-02-28', '2024-02-29', '2024-03-01']],
    ['2025-12-31', '2026-01-01', ['2025-12-31', '2026-01-01']],
    ['2025-03-11', '2025-03-10', []],
    ['not a day', '2025-03-10', []],
  ])('%s to %s', (from, to, days) => {
    expect(daysBetween(from, to)).toEqual(days);
  });
});

describe('shortRobotId', () => {
  it.each([
    ['3f2b9c1e-8d4a-4f5b-9a7c-1e2d3c4b5a69', '3f2b9c1e'],
    ['robot-1', 'robot-1'],
    ['', ''],
  ])('%s -> %s', (id, short) => {
    expect(shortRobotId(id)).toBe(short);
  });
});
