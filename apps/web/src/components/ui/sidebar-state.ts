import { SIDEBAR_COOKIE_MAX_AGE_S, SIDEBAR_COOKIE_NAME } from '@/config/constants';
import { readCookie, serializeCookie } from '../../lib/cookies';

/** Whether the desktop sidebar was left open, from a `document.cookie` string; null when never saved. */
export function parseSidebarCookie(cookieString: string): boolean | null {
  const value = readCookie(cookieString, SIDEBAR_COOKIE_NAME);
  if (value === 'true') return true;
  if (value === 'false') return false;
  return null;
}

export function sidebarCookie(open: boolean): string {
  return serializeCookie(SIDEBAR_COOKIE_NAME, String(open), {
    path: '/',
    maxAgeSeconds: SIDEBAR_COOKIE_MAX_AGE_S,
    sameSite: 'Lax',
  });
}

export interface ShortcutKey {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

/** Ctrl+B (Cmd+B on a Mac). Alt and Shift variants stay free for the browser and assistive tech. */
export function isSidebarShortcut(event: ShortcutKey): boolean {
  return event.key.toLowerCase() === 'b' && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey;
}
