import type { UsageRobot } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { chartDays, formatAxisDay, formatDay, robotLabel, usageRows } from './usage-series';

const robot = (robot_id: string, extra: Partial<UsageRobot> = {}): UsageRobot => ({
  robot_id,
  short_id: robot_id.slice(0, 8),
  model: 'Pepper',
  name: '',
  owned: false,
  total_minutes: 0,
  ...extra,
});

describe('robotLabel', () => {
  it.each([
    [{ owned: true, name: 'Desk Pepper', model: 'Pepper', short_id: '3f2b9c1e' }, 'Desk Pepper'],
    [{ owned: true, name: '  ', model: 'Pepper', short_id: '3f2b9c1e' }, 'Pepper · 3f2b9c1e'],
    // a robot no longer owned: its name is not the user's to see, whatever the answer holds
    [{ owned: false, name: 'Desk Pepper', model: 'Pepper', short_id: '3f2b9c1e' }, 'Pepper · 3f2b9c1e'],
    [{ owned: false, name: '', model: 'Tiago_Steel', short_id: '0a1b2c3d' }, 'Tiago_Steel · 0a1b2c3d'],
    [{ owned: false, name: '', model: '', short_id: 'robot-1' }, 'Unknown robot · robot-1'],
  ])('%j -> %s', (r, label) => {
    expect(robotLabel(r)).toBe(label);
  });
});

describe('chartDays', () => {
  const robots = [robot('a'), robot('b')];
  it.each([
    [
      'fills every day of the range, zero where nothing was used',
      { from: '2025-02-27', to: '2025-03-01', usage: [{ day: '2025-02-28', robot_id: 'b', minutes: 7 }] },
      [
        { day: '2025-02-27', r0: 0, r1: 0 },
        { day: '2025-02-28', r0: 0, r1: 7 },
        { day: '2025-03-01', r0: 0, r1: 0 },
      ],
    ],
    [
      'stacks robots of one day side by side, and adds rows of one day and robot',
      {
        from: '2025-03-01',
        to: '2025-03-01',
        usage: [
          { day: '2025-03-01', robot_id: 'a', minutes: 3 },
          { day: '2025-03-01', robot_id: 'b', minutes: 4 },
          { day: '2025-03-01', robot_id: 'a', minutes: 2 },
        ],
      },
      [{ day: '2025-03-01', r0: 5, r1: 4 }],
    ],
    [
      'leaves out a day outside the range and a robot not listed',
      {
        from: '2025-03-01',
        to: '2025-03-01',
        usage: [
          { day: '2025-02-01', robot_id: 'a', minutes: 3 },
          { day: '2025-03-01', robot_id: 'zzz', minutes: 9 },
        ],
      },
      [{ day: '2025-03-01', r0: 0, r1: 0 }],
    ],
  ])('%s', (_name, history, days) => {
    expect(chartDays({ ...history, robots })).toEqual(days);
  });

  it('a 365-day range has 365 rows', () => {
    expect(chartDays({ from: '2024-03-11', to: '2025-03-10', robots, usage: [] })).toHaveLength(365);
  });
});

describe('usageRows', () => {
  it('newest day first, then most minutes; a robot the answer does not list is named by its id', () => {
    const rows = usageRows({
      robots: [robot('a', { owned: true, name: 'Alpha' }), robot('b', { model: 'Nao' })],
      usage: [
        { day: '2025-03-01', robot_id: 'a', minutes: 1 },
        { day: '2025-03-02', robot_id: 'a', minutes: 2 },
        { day: '2025-03-02', robot_id: 'b', minutes: 8 },
        { day: '2025-03-01', robot_id: 'x', minutes: 5 },
      ],
    });
    expect(rows.map((r) => [r.day, r.robot, r.minutes])).toEqual([
      ['2025-03-02', 'Nao · b', 8],
      ['2025-03-02', 'Alpha', 2],
      ['2025-03-01', 'x', 5],
      ['2025-03-01', 'Alpha', 1],
    ]);
  });
});

describe('day formats', () => {
  it.each([
    ['2025-03-05', '05/03/2025', '5 Mar'],
    ['2024-12-31', '31/12/2024', '31 Dec'],
    ['oops', 'oops', 'oops'],
  ])('%s', (day, gb, axis) => {
    expect(formatDay(day)).toBe(gb);
    expect(formatAxisDay(day)).toBe(axis);
  });
});
