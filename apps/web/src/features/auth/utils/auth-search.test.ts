import { describe, expect, it } from 'vitest';
import {
  authLayoutSearchSchema,
  COMPLETE_PARSE_ERROR,
  canonicalLoginSearch,
  completeSearchSchema,
  completeSearchStrict,
  loginSearchNeedsRewrite,
  loginSearchSchema,
  parseTarget,
  safePortalRedirect,
} from './auth-search';

describe('authLayoutSearchSchema', () => {
  it.each([
    [{}, 'portal'],
    [{ target: 'portal' }, 'portal'],
    [{ target: 'hub' }, 'hub'],
    [{ target: 'HUB' }, 'portal'],
    [{ target: 42 }, 'portal'],
    [{ target: null }, 'portal'],
  ])('%j -> target %s', (raw, target) => {
    expect(authLayoutSearchSchema.read(raw).target).toBe(target);
  });
});

describe('login search', () => {
  const canonical = (raw: Record<string, unknown>) => canonicalLoginSearch(loginSearchSchema.read(raw));

  it.each([
    ['no parameters', {}, { target: 'portal' }],
    ['an invalid target', { target: 'desktop' }, { target: 'portal' }],
    ['loginMode login-to-hub', { loginMode: 'login-to-hub' }, { target: 'hub', loginMode: 'login-to-hub' }],
    [
      'loginMode login-to-hub over target portal',
      { target: 'portal', loginMode: 'login-to-hub' },
      { target: 'hub', loginMode: 'login-to-hub' },
    ],
    ['loginMode login-to-portal', { loginMode: 'login-to-portal' }, { target: 'portal', loginMode: 'login-to-portal' }],
    ['an invalid loginMode', { target: 'hub', loginMode: 'sideways' }, { target: 'hub' }],
    ['a redirect', { redirect: '/dashboard/user/profile' }, { target: 'portal', redirect: '/dashboard/user/profile' }],
    ['a redirect of the wrong type', { redirect: 12 }, { target: 'portal' }],
    ['an empty redirect', { redirect: '' }, { target: 'portal' }],
    ['forgot=1 as parsed from the address', { forgot: 1 }, { target: 'portal', forgot: true }],
    ['forgot=false', { forgot: false }, { target: 'portal' }],
    [
      'a hub link',
      { target: 'hub', redirect: 'http://127.0.0.1:5000/callback', hub_key: 'eyJrdHkiOiJFQyJ9' },
      { target: 'hub', redirect: 'http://127.0.0.1:5000/callback', hub_key: 'eyJrdHkiOiJFQyJ9' },
    ],
  ])('%s', (_label, raw, expected) => {
    expect(canonical(raw)).toEqual(expected);
  });

  it.each([
    ['a canonical address', { target: 'portal' }, false],
    ['a canonical hub address', { target: 'hub', redirect: 'http://127.0.0.1:1/cb', hub_key: 'abc' }, false],
    ['a missing target', {}, true],
    ['an invalid target', { target: 'x' }, true],
    ['an unknown parameter', { target: 'portal', utm: 'mail' }, true],
    ['loginMode that changes the target', { target: 'portal', loginMode: 'login-to-hub' }, true],
    ['forgot=1', { target: 'portal', forgot: 1 }, true],
  ])('rewrites %s: %s', (_label, raw, rewrite) => {
    expect(loginSearchNeedsRewrite(raw, canonical(raw))).toBe(rewrite);
  });

  it('is stable: a canonical address needs no further rewrite', () => {
    for (const raw of [{}, { target: 'x', loginMode: 'login-to-hub', forgot: 1, junk: true }, { redirect: '/a' }]) {
      const once = canonical(raw);
      expect(loginSearchNeedsRewrite({ ...once }, canonical({ ...once }))).toBe(false);
    }
  });
});

describe('completeSearchSchema', () => {
  it.each([
    [{ success: true }, { success: true }],
    [
      { success: false, error_message: 'Denied' },
      { success: false, error_message: 'Denied' },
    ],
    [
      { success: true, redirect: '/dashboard' },
      { success: true, redirect: '/dashboard' },
    ],
    [{}, { success: false, error_message: COMPLETE_PARSE_ERROR }],
    [{ success: 'yes' }, { success: false, error_message: COMPLETE_PARSE_ERROR }],
    [{ success: 1 }, { success: false, error_message: COMPLETE_PARSE_ERROR }],
    [
      { success: true, error_message: 5 },
      { success: false, error_message: COMPLETE_PARSE_ERROR },
    ],
  ])('%j -> %j', (raw, expected: { success: boolean; error_message?: string }) => {
    expect(completeSearchSchema.read(raw)).toEqual(expected);
    expect(completeSearchStrict.safeParse(raw).success).toBe(expected.error_message !== COMPLETE_PARSE_ERROR);
  });
});

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

describe('safePortalRedirect', () => {
  it.each([
    ['/dashboard/downloads?x=1', '/dashboard/downloads?x=1'],
    ['/dashboard#tour', '/dashboard#tour'],
    ['/dashboard/%2F%2Fevil.example', '/dashboard/%2F%2Fevil.example'],
    ['//evil.example', undefined],
    ['/\\evil.example', undefined],
    ['\\\\evil.example', undefined],
    ['/\t/evil.example', undefined],
    ['/\n/evil.example', undefined],
    ['/\r\n/evil.example', undefined],
    ['\t//evil.example', undefined],
    ['/\u0000/evil.example', undefined],
    ['/dash\\..\\\\evil.example', undefined],
    ['///evil.example', undefined],
    ['https://evil.example', undefined],
    ['https:/evil.example', undefined],
    ['javascript:alert(1)', undefined],
    ['evil.example', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%s', (redirect, expected) => expect(safePortalRedirect(redirect)).toBe(expected));
});
