import { describe, expect, it } from 'vitest';
import { formatDateGB, formatDateTime, formatLongDateGB, formatShortDate } from './dates';

const jan5 = Date.UTC(2025, 0, 5, 14, 5);

describe('formatDateTime', () => {
  it.each([
    [jan5, 'UTC', 'Sun 14:05 05/01/2025'],
    [Date.UTC(2024, 11, 31, 0, 0), 'UTC', 'Tue 00:00 31/12/2024'],
    [jan5, 'Europe/London', 'Sun 14:05 05/01/2025'],
    [Date.UTC(2025, 6, 1, 23, 30), 'Europe/London', 'Wed 00:30 02/07/2025'],
  ])('formatDateTime(%i, %s) = %s', (ms, tz, text) => {
    expect(formatDateTime(ms, tz)).toBe(text);
  });
});

describe('formatShortDate', () => {
  it.each([
    [jan5, 'Jan 05, 2025'],
    [Date.UTC(2024, 11, 31), 'Dec 31, 2024'],
  ])('formatShortDate(%i) = %s', (ms, text) => {
    expect(formatShortDate(ms, 'UTC')).toBe(text);
  });
});

describe('formatDateGB', () => {
  it.each([
    [jan5, '05/01/2025'],
    [Date.UTC(2024, 11, 31), '31/12/2024'],
  ])('formatDateGB(%i) = %s', (ms, text) => {
    expect(formatDateGB(ms, 'UTC')).toBe(text);
  });
});

describe('formatLongDateGB', () => {
  it.each([
    [Date.parse('2026-03-01'), '1 March 2026'],
    [Date.parse('2024-12-31'), '31 December 2024'],
    [jan5, '5 January 2025'],
  ])('formatLongDateGB(%i) = %s', (ms, text) => {
    expect(formatLongDateGB(ms, 'UTC')).toBe(text);
  });
});
