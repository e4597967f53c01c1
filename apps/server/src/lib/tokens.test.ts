import { webcrypto } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { manualClock } from './clock.ts';
import { TokenService } from './tokens.ts';

const SECRET = 'first-secret-that-is-long-enough-for-hs256-signing';
const OTHER = 'second-secret-that-is-long-enough-for-hs256-signing';
const claims = { sub: 'user-1', sid: 'session-1', email: 'a@example.test' };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the signing key is imported once per service', () => {
  it('many signs and verifies import the key once', async () => {
    const importKey = vi.spyOn(webcrypto.subtle, 'importKey');
    const tokens = new TokenService(SECRET, manualClock(), 900, 3600);
    const token = await tokens.signAccess(claims);
    for (let i = 0; i < 5; i++) expect(await tokens.verifyAccess(token)).toEqual(claims);
    const refresh = await tokens.signRefresh({ sub: 'user-1', sid: 'session-1', jti: 'j-1' }, 2_000_000_000);
    expect(await tokens.verifyRefresh(refresh)).toEqual({ sub: 'user-1', sid: 'session-1', jti: 'j-1' });
    expect(importKey).toHaveBeenCalledTimes(1);
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
