import { MAX_SHARE_DURATION_S, ONE_DAY_S, type SharedRobotEntry } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import {
  latestUntilValue,
  localDateValue,
  SHARE_UNTIL_PAST,
  SHARE_UNTIL_REQUIRED,
  SHARE_UNTIL_TOO_LATE,
  type SharePeriod,
  shareDurationS,
  sharesOfLicense,
} from './robots-share-period';

// Local times, so the cases hold in any time zone the tests run in.
const NOW = new Date(2026, 2, 5, 14, 0, 0).getTime();
const secondsTo = (d: Date) => Math.ceil((d.getTime() - NOW) / 1000);

describe('shareDurationS', () => {
  it.each<[string, SharePeriod, string, ReturnType<typeof shareDurationS>]>([
    ['1 day', '1', '', { durationS: ONE_DAY_S }],
    ['7 days', '7', '', { durationS: 7 * ONE_DAY_S }],
    ['30 days', '30', '', { durationS: 30 * ONE_DAY_S }],
    ['90 days', '90', '', { durationS: 90 * ONE_DAY_S }],
    ['a listed period ignores the date', '7', '2020-01-01', { durationS: 7 * ONE_DAY_S }],
    [
      'until today: to its last second',
      'until',
      '2026-03-05',
      { durationS: secondsTo(new Date(2026, 2, 5, 23, 59, 59)) },
    ],
    [
      'until tomorrow: to its last second',
      'until',
      '2026-03-06',
      { durationS: secondsTo(new Date(2026, 2, 6, 23, 59, 59)) },
    ],
    ['until a day already past', 'until', '2026-03-04', { error: SHARE_UNTIL_PAST }],
    ['until no day', 'until', '', { error: SHARE_UNTIL_REQUIRED }],
    ['until a day that does not exist', 'until', '2026-02-30', { error: SHARE_UNTIL_REQUIRED }],
    ['until a malformed day', 'until', '05/03/2026', { error: SHARE_UNTIL_REQUIRED }],
    ['until the latest day offered', 'until', '2027-03-05', { durationS: secondsTo(new Date(2027, 2, 5, 23, 59, 59)) }],
    ['until the day after that', 'until', '2027-03-06', { error: SHARE_UNTIL_TOO_LATE }],
  ])('%s', (_name, period, until, expected) => {
    expect(shareDurationS(period, until, NOW)).toEqual(expected);
  });

  it('the date input offers days up to the longest share', () => {
    expect(latestUntilValue(NOW)).toBe('2027-03-05');
    const answer = shareDurationS('until', latestUntilValue(NOW), NOW);
    expect('durationS' in answer && answer.durationS <= MAX_SHARE_DURATION_S).toBe(true);
  });
});

describe('localDateValue', () => {
  it.each([
    [new Date(2026, 0, 9, 0, 0), '2026-01-09'],
    [new Date(2026, 11, 31, 23, 59), '2026-12-31'],
  ])('%s -> %s', (date, value) => {
    expect(localDateValue(date.getTime())).toBe(value);
  });
});

describe('sharesOfLicense', () => {
  const entry = (email: string, licenseId: string, end: number): SharedRobotEntry => ({
    sharee_email: email,
    license: {
      robot_id: 'r',
      asset_id: '',
      robot_make: '',
      robot_model: 'Nao',
      pair_code: '',
      paired_status: true,
      isFlexible: false,
      robot_license: { license_id: licenseId, start_date: 0, duration: end / 1000, end_date: end },
    },
  });

  it('keeps the shares of the license, soonest to end first', () => {
    const entries = [
      entry('late@x.test', 'L1', 3_000),
      entry('other@x.test', 'L2', 1_000),
      entry('soon@x.test', 'L1', 2_000),
    ];
    expect(sharesOfLicense(entries, 'L1').map((e) => e.sharee_email)).toEqual(['soon@x.test', 'late@x.test']);
    expect(sharesOfLicense(entries, 'L3')).toEqual([]);
  });
});
