import { describe, expect, it } from 'vitest';
import { accessTokenExpired, refreshTokenExpired, tokenExpiry } from './tokens.ts';

const jwtWithExp = (exp: number) =>
  `h.${btoa(JSON.stringify({ exp })).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}.s`;

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
