import { describe, expect, it } from 'vitest';
import {
  accessTokenExpired,
  isLoopbackRedirect,
  parseTarget,
  refreshTokenExpired,
  remainingDays,
  safePortalRedirect,
  tokenExpiry,
} from './session.ts';

const jwtWithExp = (exp: number) =>
  `h.${btoa(JSON.stringify({ exp })).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}.s`;

describe('parseTarget', () => {
  it.each([
    ['portal', undefined, 'portal'],
    ['hub', undefined, 'hub'],
    ['nonsense', undefined, 'portal'],
    [undefined, undefined, 'portal'],
    ['portal', 'login-to-hub', 'hub'],
    [undefined, 'login-to-portal', 'portal'],
  ])('%s / %s', (target, mode, expected) => expect(parseTarget(target, mode)).toBe(expected));
});

describe('token expiry margins', () => {
  const exp = 1_000_000;
  it.each([
    [exp - 61, false, false],
    [exp - 60, false, true],
    [exp - 31, false, true],
    [exp - 30, true, true],
    [exp + 1, true, true],
  ])('at %s', (now, accessExpired, refreshExpired) => {
    expect(accessTokenExpired(jwtWithExp(exp), now)).toBe(accessExpired);
    expect(refreshTokenExpired(jwtWithExp(exp), now)).toBe(refreshExpired);
  });

  it('reads exp from the payload, and falls back to default lifetimes from when it was stored', () => {
    expect(tokenExpiry(jwtWithExp(42))).toBe(42);
    expect(tokenExpiry('garbage')).toBeUndefined();
    expect(accessTokenExpired('opaque', 1000, 1000)).toBe(false);
    expect(accessTokenExpired('opaque', 1000 + 15 * 60 - 30, 1000)).toBe(true);
    expect(refreshTokenExpired('opaque', 1000 + 7 * 86400 - 61, 1000)).toBe(false);
    expect(accessTokenExpired(null, 0)).toBe(true);
  });
});

describe('remainingDays', () => {
  it.each([
    [86400 * 10, 0, 10],
    [86400 * 10 + 43200, 0, 11],
    [86400 * 10 + 43199, 0, 10],
    [0, 86400, 0],
  ])('%s - %s', (end, now, expected) => expect(remainingDays(end, now)).toBe(expected));
});

describe('isLoopbackRedirect', () => {
  it.each([
    ['http://127.0.0.1:5123/callback', true],
    ['http://localhost:5123/callback', true],
    // IPv6 literals cannot be named in a CSP form-action source, so the handover could not post there.
    ['http://[::1]:5123/callback', false],
    ['https://127.0.0.1:5123/callback', false],
    ['http://evil.example/callback', false],
    ['http://127.0.0.1.evil.example/callback', false],
    ['http://user:pw@127.0.0.1:1/x', false],
    ['javascript:alert(1)', false],
    ['not a url', false],
  ])('%s', (url, expected) => expect(isLoopbackRedirect(url)).toBe(expected));
});

describe('safePortalRedirect', () => {
  it.each([
    ['/dashboard/downloads?x=1', '/dashboard/downloads?x=1'],
    ['//evil.example', undefined],
    ['/\\evil.example', undefined],
    ['https://evil.example', undefined],
    [undefined, undefined],
  ])('%s', (redirect, expected) => expect(safePortalRedirect(redirect)).toBe(expected));
});
