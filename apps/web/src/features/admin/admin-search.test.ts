import { describe, expect, it } from 'vitest';
import { auditFilterOf, consoleRedirect, enrolmentToken, readAuditSearch } from './admin-search';

describe('readAuditSearch: the audit filters of an address', () => {
  it.each([
    [{}, {}],
    [
      { actor: ' grace@example.com ', action: 'staff.' },
      { actor: 'grace@example.com', action: 'staff.' },
    ],
    [
      { from: '2026-11-01', to: '2026-11-30' },
      { from: '2026-11-01', to: '2026-11-30' },
    ],
    // Not a day, not a real day, not a string: dropped, so a bad link still opens the trail.
    [{ from: '2026-13-01', to: '2026-02-30' }, {}],
    [{ from: 20261101, customer: '' }, {}],
    [{ action: 'x'.repeat(81) }, {}],
    [{ customer: 'u-1', extra: 'ignored' }, { customer: 'u-1' }],
  ])('%j → %j', (raw, expected) => {
    expect(readAuditSearch(raw)).toEqual(expected);
  });
});

describe('auditFilterOf: the filters as ListAudit takes them', () => {
  it.each([
    [{}, {}],
    [{ action: 'api_key.' }, { audit_action: 'api_key.' }],
    // Days in UTC; `to` is the whole day, so the next day's start (exclusive).
    [
      { from: '2026-11-01', to: '2026-11-01' },
      { from: Date.UTC(2026, 10, 1), to: Date.UTC(2026, 10, 2) },
    ],
  ])('%j → %j', (search, expected) => {
    expect(auditFilterOf(search)).toEqual(expected);
  });
});

describe('consoleRedirect: where the staff sign-in may go back to', () => {
  it.each([
    ['/admin', '/admin'],
    ['/admin/audit?action=staff.', '/admin/audit?action=staff.'],
    ['/admin/sign-in', undefined],
    ['/administrator', undefined],
    ['/dashboard', undefined],
    ['https://evil.example/admin', undefined],
    ['//evil.example/admin', undefined],
    [42, undefined],
  ])('%j → %j', (value, expected) => {
    expect(consoleRedirect(value)).toBe(expected);
  });
});

describe('enrolmentToken', () => {
  it.each([
    [' abc ', 'abc'],
    ['', undefined],
    ['x'.repeat(129), undefined],
    [undefined, undefined],
  ])('%j → %j', (value, expected) => {
    expect(enrolmentToken(value)).toBe(expected);
  });
});
