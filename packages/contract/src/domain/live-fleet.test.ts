import { describe, expect, it } from 'vitest';
import { ONE_DAY_MS } from '../constants.ts';
import {
  EMPTY_GEO_RANGE,
  type GeoBox,
  geoBoundingBox,
  type LicenseUse,
  type LicenseUseInput,
  licenseUse,
  ROBOT_REPORT_TIMEOUT_MS,
  robotAvailable,
} from './live-fleet.ts';

const NOW = Date.UTC(2026, 10, 23, 12);

describe('licenseUse', () => {
  it.each<[string, Omit<LicenseUseInput, 'nowMs'>, LicenseUse]>([
    [
      'paired, reported an hour ago',
      { paired: true, lastSeenMs: NOW - 3_600_000, pairedAtMs: NOW - 90 * ONE_DAY_MS },
      { unused: false },
    ],
    ['paired, reported 29 days ago', { paired: true, lastSeenMs: NOW - 29 * ONE_DAY_MS }, { unused: false }],
    [
      'paired, reported exactly 30 days ago',
      { paired: true, lastSeenMs: NOW - 30 * ONE_DAY_MS },
      { unused: true, reason: 'silent', sinceMs: NOW - 30 * ONE_DAY_MS },
    ],
    [
      'paired, silent for a year (the old pairing does not matter)',
      { paired: true, lastSeenMs: NOW - 365 * ONE_DAY_MS, pairedAtMs: NOW - 400 * ONE_DAY_MS },
      { unused: true, reason: 'silent', sinceMs: NOW - 365 * ONE_DAY_MS },
    ],
    [
      'paired a week ago, never reported',
      { paired: true, lastSeenMs: 0, pairedAtMs: NOW - 7 * ONE_DAY_MS },
      { unused: false },
    ],
    [
      'paired 31 days ago, never reported',
      { paired: true, lastSeenMs: 0, pairedAtMs: NOW - 31 * ONE_DAY_MS },
      { unused: true, reason: 'never-reported', sinceMs: NOW - 31 * ONE_DAY_MS },
    ],
    ['paired, no dates at all', { paired: true }, { unused: false }],
    ['unpaired since yesterday', { paired: false, unpairedSinceMs: NOW - ONE_DAY_MS }, { unused: false }],
    [
      'unpaired for 30 days',
      { paired: false, unpairedSinceMs: NOW - 30 * ONE_DAY_MS },
      { unused: true, reason: 'unpaired', sinceMs: NOW - 30 * ONE_DAY_MS },
    ],
    [
      'unpaired: an old report of its former robot is not what counts',
      { paired: false, unpairedSinceMs: NOW - 2 * ONE_DAY_MS, lastSeenMs: NOW - 60 * ONE_DAY_MS },
      { unused: false },
    ],
    ['unpaired, no date', { paired: false }, { unused: false }],
  ])('%s', (_name, input, expected) => {
    expect(licenseUse({ ...input, nowMs: NOW })).toEqual(expected);
  });
});

describe('geoBoundingBox', () => {
  it.each<[string, { lat: number; lon: number }[], GeoBox]>([
    ['no positions: the empty range', [], EMPTY_GEO_RANGE],
    [
      'one robot: a box of one point',
      [{ lat: 51.5, lon: -0.12 }],
      { UpperLat: 51.5, LowerLat: 51.5, UpperLong: -0.12, LowerLong: -0.12 },
    ],
    [
      'robots on both sides of the equator and the meridian',
      [
        { lat: 51.5, lon: -0.12 },
        { lat: -33.9, lon: 151.2 },
        { lat: 40.7, lon: -74 },
      ],
      { UpperLat: 51.5, LowerLat: -33.9, UpperLong: 151.2, LowerLong: -74 },
    ],
    [
      'the extremes',
      [
        { lat: 90, lon: 180 },
        { lat: -90, lon: -180 },
      ],
      { UpperLat: 90, LowerLat: -90, UpperLong: 180, LowerLong: -180 },
    ],
  ])('%s', (_name, points, box) => {
    expect(geoBoundingBox(points)).toEqual(box);
  });

  it('answers a new empty range each time (callers may change it)', () => {
    expect(geoBoundingBox([])).not.toBe(EMPTY_GEO_RANGE);
  });
});

describe('robotAvailable (issue 32 item 5)', () => {
  const now = 1_800_000_000_000;
  it.each([
    { name: 'reported available just now', reportedAvailable: true, lastSeenMs: now, expected: true },
    {
      name: 'reported available, at the limit',
      reportedAvailable: true,
      lastSeenMs: now - ROBOT_REPORT_TIMEOUT_MS,
      expected: true,
    },
    {
      name: 'reported available, silent past the limit',
      reportedAvailable: true,
      lastSeenMs: now - ROBOT_REPORT_TIMEOUT_MS - 1,
      expected: false,
    },
    { name: 'available but never reported', reportedAvailable: true, lastSeenMs: 0, expected: false },
    { name: 'available, no report time', reportedAvailable: true, lastSeenMs: undefined, expected: false },
    { name: 'reported unavailable just now', reportedAvailable: false, lastSeenMs: now, expected: false },
    {
      name: 'unavailable and silent',
      reportedAvailable: false,
      lastSeenMs: now - ROBOT_REPORT_TIMEOUT_MS - 1,
      expected: false,
    },
  ])('$name -> $expected', ({ reportedAvailable, lastSeenMs, expected }) => {
    expect(robotAvailable({ reportedAvailable, lastSeenMs, nowMs: now })).toBe(expected);
  });
});
