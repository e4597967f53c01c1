import { ONE_DAY_S } from '@portal/contract';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { accessTokenExpired, refreshTokenExpired, tokenExpiry } from './tokens.ts';

/** base64url without padding, as a JWT writes its parts. */
const b64url = (payload: Uint8Array | string) => {
  const bytes = typeof payload === 'string' ? new TextEncoder().encode(payload) : payload;
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
};

const jwtWithExp = (exp: number) => `h.${b64url(JSON.stringify({ exp }))}.s`;

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
    expect(refreshTokenExpired('opaque', 1000 + 7 * ONE_DAY_S - 61, 1000)).toBe(false);
    expect(accessTokenExpired(null, 0)).toBe(true);
  });
});

describe('tokenExpiry reads exp as jose decodeJwt does', () => {
  const jwt = (payload: string | Uint8Array) => `${b64url('{"alg":"HS256"}')}.${b64url(payload)}.c2ln`;
  /** jose's reading, the reference: exp when the payload is a JSON object with a numeric exp. */
  const reference = (token: string) => {
    try {
      const { exp } = decodeJwt(token);
      return typeof exp === 'number' ? exp : undefined;
    } catch {
      return undefined;
    }
  };
  it.each([
    ['an exp', jwt('{"exp":1700000000}'), 1700000000],
    ['payload lengths that need 1 and 2 padding characters', jwt('{"exp":1,"a":"xy"}'), 1],
    ['padding of 2', jwt('{"exp":1,"a":"x"}'), 1],
    ['no padding', jwt('{"exp":1,"a":""}'), 1],
    ['characters base64url writes as - and _', jwt('{"exp":5,"s":"??>>~~"}'), 5],
    ['non-ASCII claims', jwt('{"exp":7,"name":"Zoë ✓ 日本"}'), 7],
    ['exp as a string', jwt('{"exp":"7"}'), undefined],
    ['no exp', jwt('{"sub":"u"}'), undefined],
    ['a JSON array', jwt('[1,2]'), undefined],
    ['a JSON number', jwt('42'), undefined],
    ['null', jwt('null'), undefined],
    ['not JSON', jwt('exp=1'), undefined],
    ['invalid UTF-8', jwt(new Uint8Array([0x7b, 0xff, 0x7d])), undefined],
    ['two segments', 'eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjF9', undefined],
    ['four segments', `${jwt('{"exp":1}')}.x`, undefined],
    ['an empty payload', 'eyJhbGciOiJIUzI1NiJ9..c2ln', undefined],
    ['standard base64 characters', 'eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjF9+/.c2ln', undefined],
    ['a payload of 4n+1 characters', 'eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjF9a.c2ln', undefined],
  ])('%s', (_name, token, exp) => {
    expect(reference(token)).toBe(exp);
    expect(tokenExpiry(token)).toBe(exp);
  });
});
