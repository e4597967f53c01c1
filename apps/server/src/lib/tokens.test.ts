import { createHmac, webcrypto } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { manualClock } from './clock.ts';
import { keyId } from './keys.ts';
import { TokenService, VERIFIED_ACCESS_MAX } from './tokens.ts';

const SECRET = 'first-secret-that-is-long-enough-for-hs256-signing';
const OTHER = 'second-secret-that-is-long-enough-for-hs256-signing';
const claims = { sub: 'user-1', sid: 'session-1', email: 'a@example.test' };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('tokens are signed and verified with node:crypto, synchronously', () => {
  it('many signs and verifies use no WebCrypto (no key import, no trip to the thread pool)', async () => {
    const importKey = vi.spyOn(webcrypto.subtle, 'importKey');
    const sign = vi.spyOn(webcrypto.subtle, 'sign');
    const tokens = new TokenService(SECRET, manualClock(), 900, 3600);
    const token = await tokens.signAccess(claims);
    for (let i = 0; i < 5; i++) expect(await tokens.verifyAccess(token)).toEqual(claims);
    const refresh = await tokens.signRefresh({ sub: 'user-1', sid: 'session-1', jti: 'j-1' }, 2_000_000_000);
    expect(await tokens.verifyRefresh(refresh)).toEqual({ sub: 'user-1', sid: 'session-1', jti: 'j-1' });
    expect(importKey).not.toHaveBeenCalled();
    expect(sign).not.toHaveBeenCalled();
  });

  it('a new secret (rotation) is a new service: old tokens are refused, the same secret still verifies', async () => {
    const clock = manualClock();
    const before = new TokenService(SECRET, clock, 900, 3600);
    const token = await before.signAccess(claims);
    expect(await before.verifyAccess(token)).toEqual(claims);
    expect(await new TokenService(OTHER, clock, 900, 3600).verifyAccess(token)).toBe('invalid');
    expect(await new TokenService(SECRET, clock, 900, 3600).verifyAccess(token)).toEqual(claims);
    // The cached key changes nothing about expiry or audience.
    expect(await before.verifyRefresh(token)).toBe('invalid');
    clock.advance(901_000);
    expect(await before.verifyAccess(token)).toBe('expired');
  });
});

describe('key ids and JWT_SECRET_PREVIOUS (docs/decisions/058)', () => {
  const header = (token: string) => JSON.parse(Buffer.from(token.split('.')[0] as string, 'base64url').toString());
  const refreshClaims = { sub: 'user-1', sid: 'session-1', jti: 'j-1' };

  it("every token names its key: the header's kid is the signing secret's key id", async () => {
    const tokens = new TokenService(SECRET, manualClock(), 900, 3600, OTHER);
    expect(header(await tokens.signAccess(claims))).toEqual({ alg: 'HS256', kid: keyId(SECRET) });
    expect(header(await tokens.signRefresh(refreshClaims, 2_000_000_000))).toEqual({
      alg: 'HS256',
      kid: keyId(SECRET),
    });
  });

  it('after a rotation, access and refresh tokens of the previous secret still verify; without it they do not', async () => {
    const clock = manualClock();
    const before = new TokenService(SECRET, clock, 900, 3600);
    const access = await before.signAccess(claims);
    const refresh = await before.signRefresh(refreshClaims, Math.floor(clock.now().getTime() / 1000) + 3600);

    const rotated = new TokenService(OTHER, clock, 900, 3600, SECRET);
    expect(await rotated.verifyAccess(access)).toEqual(claims);
    expect(await rotated.verifyRefresh(refresh)).toEqual(refreshClaims);
    // What the rotated service signs is the new key's, and verifies where only the new key is known.
    const fresh = await rotated.signAccess(claims);
    expect(header(fresh).kid).toBe(keyId(OTHER));
    expect(await new TokenService(OTHER, clock, 900, 3600).verifyAccess(fresh)).toEqual(claims);

    const withoutPrevious = new TokenService(OTHER, clock, 900, 3600);
    expect(await withoutPrevious.verifyAccess(access)).toBe('invalid');
    expect(await withoutPrevious.verifyRefresh(refresh)).toBe('invalid');
    // The previous key's tokens still expire as before.
    clock.advance(901_000);
    expect(await rotated.verifyAccess(access)).toBe('expired');
  });

  it('a token whose kid names no key of the service is refused, even with a good signature', async () => {
    const tokens = new TokenService(SECRET, manualClock(), 900, 3600, OTHER);
    const [, payload] = (await tokens.signAccess(claims)).split('.') as [string, string];
    for (const kid of ['AAAAAAAA', keyId(`${SECRET}-x`), '']) {
      const head = Buffer.from(JSON.stringify({ alg: 'HS256', kid })).toString('base64url');
      const signature = createHmac('sha256', SECRET).update(`${head}.${payload}`).digest('base64url');
      expect(await tokens.verifyAccess(`${head}.${payload}.${signature}`)).toBe('invalid');
    }
  });
});

describe('access tokens verified once are remembered, and nothing else changes', () => {
  it('a remembered token still expires, at the same second', async () => {
    const clock = manualClock();
    const tokens = new TokenService(SECRET, clock, 900, 3600);
    const token = await tokens.signAccess(claims);
    expect(await tokens.verifyAccess(token)).toEqual(claims);
    clock.advance(899_000);
    expect(await tokens.verifyAccess(token)).toEqual(claims);
    clock.advance(1_000);
    expect(await tokens.verifyAccess(token)).toBe('expired');
  });

  it('any other text is verified in full: a changed signature or payload is refused after the token was remembered', async () => {
    const tokens = new TokenService(SECRET, manualClock(), 900, 3600);
    const token = await tokens.signAccess(claims);
    expect(await tokens.verifyAccess(token)).toEqual(claims);
    const [h, p, s] = token.split('.') as [string, string, string];
    const flipped = `${s.slice(0, -2)}${s.at(-2) === 'A' ? 'B' : 'A'}${s.at(-1)}`;
    expect(await tokens.verifyAccess(`${h}.${p}.${flipped}`)).toBe('invalid');
    const otherPayload = Buffer.from(JSON.stringify({ ...claims, sub: 'user-2' })).toString('base64url');
    expect(await tokens.verifyAccess(`${h}.${otherPayload}.${s}`)).toBe('invalid');
    // A refresh token is never taken for an access token, remembered or not.
    expect(await tokens.verifyRefresh(token)).toBe('invalid');
  });

  it('the claims handed out cannot be changed by a caller', async () => {
    const tokens = new TokenService(SECRET, manualClock(), 900, 3600);
    const token = await tokens.signAccess(claims);
    const first = await tokens.verifyAccess(token);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => {
      (first as { sub: string }).sub = 'someone-else';
    }).toThrow(TypeError);
    expect(await tokens.verifyAccess(token)).toEqual(claims);
  });

  it(`past ${VERIFIED_ACCESS_MAX} tokens the memory starts again and every token still verifies`, async () => {
    const tokens = new TokenService(SECRET, manualClock(), 900, 3600);
    const first = await tokens.signAccess(claims);
    expect(await tokens.verifyAccess(first)).toEqual(claims);
    // Distinct tokens: the session id differs.
    for (let i = 0; i < VERIFIED_ACCESS_MAX; i++) {
      const t = await tokens.signAccess({ ...claims, sid: `session-${i}` });
      expect(typeof (await tokens.verifyAccess(t))).toBe('object');
    }
    expect(await tokens.verifyAccess(first)).toEqual(claims);
  });
});
