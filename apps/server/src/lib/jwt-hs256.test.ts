import { createHmac } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { hs256Key, signHs256, verifyHs256 } from './jwt-hs256.ts';
import { keyId } from './keys.ts';

const SECRET = 'a-secret-that-is-long-enough-for-hs256-signing-0123';
const OTHER_SECRET = 'another-secret-that-is-long-enough-for-hs256-0123';
const key = hs256Key(SECRET);
const keys = [key];
const NOW = 1_800_000_000;
const expectAccess = { issuer: 'robot-portal', audience: 'access', nowS: NOW };

const b64 = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
/** A token put together by hand, so every part can be wrong on its own. */
function handMade(header: unknown, payload: unknown, secret = SECRET): string {
  const signing = `${b64(header)}.${b64(payload)}`;
  return `${signing}.${createHmac('sha256', secret).update(signing).digest('base64url')}`;
}
const good = { iss: 'robot-portal', aud: 'access', sub: 'u-1', iat: NOW - 10, exp: NOW + 900 };
const hs256 = { alg: 'HS256', kid: key.id };

describe('verifyHs256', () => {
  it('accepts what jose signs, with the same claims, and no kid (tokens from before key ids)', async () => {
    const token = await new SignJWT({ sid: 's-1', email: 'a@example.test', typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u-1')
      .setIssuer('robot-portal')
      .setAudience('access')
      .setIssuedAt(NOW - 5)
      .setExpirationTime(NOW + 900)
      .sign(new TextEncoder().encode(SECRET));
    expect(verifyHs256(token, keys, expectAccess)).toEqual({
      payload: {
        sid: 's-1',
        email: 'a@example.test',
        typ: 'access',
        sub: 'u-1',
        iss: 'robot-portal',
        aud: 'access',
        iat: NOW - 5,
        exp: NOW + 900,
      },
    });
  });

  const valid = handMade(hs256, good);
  const [h, p, s] = valid.split('.') as [string, string, string];
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  // The last of 43 characters carries 4 bits of the 32 bytes and 2 spare bits: another spelling of the same bytes.
  const respelled = `${s.slice(0, -1)}${ALPHABET[ALPHABET.indexOf(s.at(-1) as string) ^ 1]}`;
  const flip = (text: string) => `${text.slice(0, -2)}${text.at(-2) === 'A' ? 'B' : 'A'}${text.at(-1)}`;

  it.each<[string, string, 'expired' | 'invalid' | 'ok']>([
    ['the well-formed token', valid, 'ok'],
    ['typ in the header', handMade({ ...hs256, typ: 'JWT' }, good), 'ok'],
    ['no kid (a token from before key ids)', handMade({ alg: 'HS256' }, good), 'ok'],
    ['a kid none of the keys has', handMade({ ...hs256, kid: keyId(OTHER_SECRET) }, good), 'invalid'],
    ['a kid that is not a string', handMade({ ...hs256, kid: 7 }, good), 'invalid'],
    ['an empty kid', handMade({ ...hs256, kid: '' }, good), 'invalid'],
    ['our kid over another secret', handMade(hs256, good, OTHER_SECRET), 'invalid'],
    ['no kid over another secret', handMade({ alg: 'HS256' }, good, OTHER_SECRET), 'invalid'],
    ['aud as a list holding the audience', handMade(hs256, { ...good, aud: ['other', 'access'] }), 'ok'],
    ['nbf now', handMade(hs256, { ...good, nbf: NOW }), 'ok'],
    ['another secret and its kid', handMade({ ...hs256, kid: keyId(OTHER_SECRET) }, good, OTHER_SECRET), 'invalid'],
    ['a changed payload under the old signature', `${h}.${b64({ ...good, sub: 'u-2' })}.${s}`, 'invalid'],
    ['a changed signature', `${h}.${p}.${flip(s)}`, 'invalid'],
    ['the same signature spelled with other spare bits', `${h}.${p}.${respelled}`, 'invalid'],
    ['the signature with padding', `${h}.${p}.${s}=`, 'invalid'],
    ['a signature cut short', `${h}.${p}.${s.slice(0, 20)}`, 'invalid'],
    ['no signature', `${h}.${p}.`, 'invalid'],
    ['alg none, unsigned', `${b64({ alg: 'none' })}.${p}.`, 'invalid'],
    ['alg none, signed anyway', handMade({ alg: 'none' }, good), 'invalid'],
    ['alg HS512', handMade({ alg: 'HS512' }, good), 'invalid'],
    ['a crit header', handMade({ ...hs256, crit: ['b64'], b64: false }, good), 'invalid'],
    ['a header that is not an object', handMade('"HS256"', good), 'invalid'],
    ['a payload that is not JSON', handMade(hs256, 'not json'), 'invalid'],
    ['a payload that is a list', handMade(hs256, [good]), 'invalid'],
    ['two segments', `${h}.${p}`, 'invalid'],
    ['four segments', `${valid}.${s}`, 'invalid'],
    ['characters outside base64url', `${h}.${p}+.${s}`, 'invalid'],
    ['the empty string', '', 'invalid'],
    ['another issuer', handMade(hs256, { ...good, iss: 'someone-else' }), 'invalid'],
    ['no issuer', handMade(hs256, { ...good, iss: undefined }), 'invalid'],
    ['the refresh audience', handMade(hs256, { ...good, aud: 'refresh' }), 'invalid'],
    ['no audience', handMade(hs256, { ...good, aud: undefined }), 'invalid'],
    ['exp one second ago', handMade(hs256, { ...good, exp: NOW - 1 }), 'expired'],
    ['exp now', handMade(hs256, { ...good, exp: NOW }), 'expired'],
    ['exp a second ahead', handMade(hs256, { ...good, exp: NOW + 1 }), 'ok'],
    ['no exp', handMade(hs256, { ...good, exp: undefined }), 'invalid'],
    ['exp as a string', handMade(hs256, { ...good, exp: String(NOW + 900) }), 'invalid'],
    ['nbf in the future', handMade(hs256, { ...good, nbf: NOW + 1 }), 'invalid'],
    ['nbf as a string', handMade(hs256, { ...good, nbf: 'soon' }), 'invalid'],
    ['iat as a string', handMade(hs256, { ...good, iat: 'then' }), 'invalid'],
    ['an expired token from another issuer', handMade(hs256, { ...good, iss: 'x', exp: NOW - 1 }), 'invalid'],
  ])('%s', (_name, token, outcome) => {
    const result = verifyHs256(token, keys, expectAccess);
    if (outcome === 'ok') expect(result).toMatchObject({ payload: { sub: 'u-1' } });
    else expect(result).toBe(outcome);
  });
});

describe('signHs256', () => {
  const claims = {
    sid: 's-1',
    typ: 'refresh',
    sub: 'u-1',
    jti: 'j-1',
    iss: 'robot-portal',
    aud: 'refresh',
    iat: NOW,
    exp: NOW + 60,
  };

  it('signs what jose verifies, with exactly the claims given and the header {"alg":"HS256","kid":<key id>}', async () => {
    const token = signHs256(claims, key);
    const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(SECRET), {
      issuer: 'robot-portal',
      audience: 'refresh',
      currentDate: new Date(NOW * 1000),
    });
    expect(protectedHeader).toEqual({ alg: 'HS256', kid: keyId(SECRET) });
    expect(payload).toEqual(claims);
    expect(verifyHs256(token, keys, { issuer: 'robot-portal', audience: 'refresh', nowS: NOW })).toEqual({
      payload: claims,
    });
  });

  it('signs byte for byte what jose signs for the same claims and header', async () => {
    const jose = await new SignJWT({ sid: 's-1', typ: 'refresh' })
      .setProtectedHeader({ alg: 'HS256', kid: keyId(SECRET) })
      .setSubject('u-1')
      .setJti('j-1')
      .setIssuer('robot-portal')
      .setAudience('refresh')
      .setIssuedAt(NOW)
      .setExpirationTime(NOW + 60)
      .sign(new TextEncoder().encode(SECRET));
    expect(signHs256(claims, key)).toBe(jose);
  });

  it('is refused under another secret', () => {
    const other = hs256Key(OTHER_SECRET);
    expect(
      verifyHs256(signHs256(claims, other), keys, { issuer: 'robot-portal', audience: 'refresh', nowS: NOW }),
    ).toBe('invalid');
  });
});

describe('key ids and a rotation (docs/decisions/058)', () => {
  const current = hs256Key(OTHER_SECRET);
  const previous = key;
  const refresh = { issuer: 'robot-portal', audience: 'refresh', nowS: NOW };
  const claims = { sub: 'u-1', iss: 'robot-portal', aud: 'refresh', iat: NOW, exp: NOW + 60 };

  it('a key id is 8 base64url characters, the same for a secret every time, another for another secret', () => {
    expect(key.id).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(hs256Key(SECRET).id).toBe(key.id);
    expect(current.id).not.toBe(previous.id);
    expect(SECRET).not.toContain(key.id);
  });

  it("the previous key's tokens verify while it is listed, and not after", () => {
    const old = signHs256(claims, previous);
    expect(verifyHs256(old, [current, previous], refresh)).toEqual({ payload: claims });
    expect(verifyHs256(old, [current], refresh)).toBe('invalid');
    expect(verifyHs256(signHs256(claims, current), [current, previous], refresh)).toEqual({ payload: claims });
  });

  it('a token from before key ids verifies under the current or the listed previous key', () => {
    expect(verifyHs256(handMade({ alg: 'HS256' }, claims, SECRET), [current, previous], refresh)).toEqual({
      payload: claims,
    });
    expect(verifyHs256(handMade({ alg: 'HS256' }, claims, OTHER_SECRET), [current, previous], refresh)).toEqual({
      payload: claims,
    });
    expect(verifyHs256(handMade({ alg: 'HS256' }, claims, SECRET), [current], refresh)).toBe('invalid');
  });

  it('the kid binds the key: a token naming one key and signed with the other is refused', () => {
    expect(verifyHs256(handMade({ alg: 'HS256', kid: current.id }, claims, SECRET), [current, previous], refresh)).toBe(
      'invalid',
    );
    expect(
      verifyHs256(handMade({ alg: 'HS256', kid: previous.id }, claims, OTHER_SECRET), [current, previous], refresh),
    ).toBe('invalid');
  });
});
