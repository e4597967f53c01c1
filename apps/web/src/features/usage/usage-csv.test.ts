import type { UsageRobot } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { csvField, toCsv, usageCsv, usageCsvName } from './usage-csv';

describe('csvField', () => {
  it.each([
    ['plain', 'plain'],
    ['', ''],
    [42, '42'],
    [0, '0'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\r\nlf', '"cr\r\nlf"'],
    ['"', '""""'],
    // a spreadsheet would run these as formulas
    ['=1+1', "'=1+1"],
    ['+SUM(A1)', "'+SUM(A1)"],
    ['-3', "'-3"],
    ['@cmd', "'@cmd"],
    ['=HYPERLINK("x","y")', `"'=HYPERLINK(""x"",""y"")"`],
    ['Tiago++ · 3f2b9c1e', 'Tiago++ · 3f2b9c1e'],
  ])('%j -> %j', (value, field) => {
    expect(csvField(value)).toBe(field);
  });
});

describe('toCsv', () => {
  it.each([
    [[], ''],
    [[['a']], 'a'],
    [
      [
        ['a', 'b'],
        [1, 'x,y'],
      ],
      'a,b\r\n1,"x,y"',
    ],
  ] as const)('%j', (rows, text) => {
    expect(toCsv(rows)).toBe(text);
  });
});

const robot = (robot_id: string, extra: Partial<UsageRobot> = {}): UsageRobot => ({
  robot_id,
  short_id: robot_id.slice(0, 8),
  model: 'Pepper',
  name: '',
  owned: false,
  total_minutes: 0,
  ...extra,
});

describe('usageCsv', () => {
  it('one line per day and robot, newest day first, names as the screen shows them', () => {
    const csv = usageCsv({
      robots: [
        robot('aaaaaaaa-1111', { owned: true, name: 'Desk, "Lobby" Pepper', total_minutes: 15 }),
        robot('bbbbbbbb-2222', { model: 'Nao', total_minutes: 4 }),
        robot('cccccccc-3333', { model: '', total_minutes: 2 }),
      ],
      usage: [
        { day: '2025-03-01', robot_id: 'aaaaaaaa-1111', minutes: 10 },
        { day: '2025-03-02', robot_id: 'bbbbbbbb-2222', minutes: 4 },
        { day: '2025-03-02', robot_id: 'aaaaaaaa-1111', minutes: 5 },
        { day: '2025-03-01', robot_id: 'cccccccc-3333', minutes: 2 },
      ],
    });
    expect(csv.split('\r\n')).toEqual([
      'Day (UTC),Robot,Model,Robot ID,Minutes',
      '2025-03-02,"Desk, ""Lobby"" Pepper",Pepper,aaaaaaaa-1111,5',
      '2025-03-02,Nao · bbbbbbbb,Nao,bbbbbbbb-2222,4',
      '2025-03-01,"Desk, ""Lobby"" Pepper",Pepper,aaaaaaaa-1111,10',
      '2025-03-01,Unknown robot · cccccccc,,cccccccc-3333,2',
    ]);
  });

  it('an empty history is the header alone', () => {
    expect(usageCsv({ robots: [], usage: [] })).toBe('Day (UTC),Robot,Model,Robot ID,Minutes');
  });

  it.each([
    [30, '2025-03-10', 'dial-time-usage-30-days-to-2025-03-10.csv'],
    [365, '2026-01-01', 'dial-time-usage-365-days-to-2026-01-01.csv'],
  ])('file name for %i days to %s', (days, to, name) => {
    expect(usageCsvName(days, to)).toBe(name);
  });
});
