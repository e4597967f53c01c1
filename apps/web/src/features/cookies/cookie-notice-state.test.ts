import { describe, expect, it } from 'vitest';
import { acknowledgementCookie, COOKIE_NOTICE_COOKIE, hasAcknowledgedCookies } from './cookie-notice-state';

describe('hasAcknowledgedCookies', () => {
  it.each([
    { cookies: '', expected: false },
    { cookies: 'sidebar_state=true', expected: false },
    { cookies: `${COOKIE_NOTICE_COOKIE}=true`, expected: true },
    { cookies: `a=1; ${COOKIE_NOTICE_COOKIE}=true; b=2`, expected: true },
    // Any value counts: the notice only asks whether the user has seen it.
    { cookies: `${COOKIE_NOTICE_COOKIE}=`, expected: true },
  ])('$cookies -> $expected', ({ cookies, expected }) => {
    expect(hasAcknowledgedCookies(cookies)).toBe(expected);
  });
});

describe('acknowledgementCookie', () => {
  it.each([
    { secure: false, expected: `${COOKIE_NOTICE_COOKIE}=true; path=/; max-age=31536000; SameSite=Lax` },
    { secure: true, expected: `${COOKIE_NOTICE_COOKIE}=true; path=/; max-age=31536000; SameSite=Lax; Secure` },
  ])('secure $secure', ({ secure, expected }) => {
    expect(acknowledgementCookie(secure)).toBe(expected);
    expect(hasAcknowledgedCookies(acknowledgementCookie(secure))).toBe(true);
  });
});
