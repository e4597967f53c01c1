import { ONE_DAY_S } from '@portal/contract';
import { readCookie, serializeCookie } from '../../lib/cookies';

export const COOKIE_NOTICE_COOKIE = 'cookie_notice_acknowledged';
const ONE_YEAR_S = 365 * ONE_DAY_S;

export function hasAcknowledgedCookies(cookieString: string): boolean {
  return readCookie(cookieString, COOKIE_NOTICE_COOKIE) !== null;
}

export function acknowledgementCookie(secure: boolean): string {
  return serializeCookie(COOKIE_NOTICE_COOKIE, 'true', {
    path: '/',
    maxAgeSeconds: ONE_YEAR_S,
    sameSite: 'Lax',
    secure,
  });
}
