import { describe, expect, it } from 'vitest';
import { isLoopbackRedirect, parseTarget, remainingDays, safePortalRedirect } from './session.ts';

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
