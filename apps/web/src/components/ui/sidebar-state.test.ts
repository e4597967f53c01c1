import { describe, expect, it } from 'vitest';
import { SIDEBAR_COOKIE_NAME } from '@/config/constants';
import { isSidebarShortcut, parseSidebarCookie, sidebarCookie } from './sidebar-state';

describe('parseSidebarCookie', () => {
  it.each([
    { cookies: '', expected: null },
    { cookies: `${SIDEBAR_COOKIE_NAME}=true`, expected: true },
    { cookies: `${SIDEBAR_COOKIE_NAME}=false`, expected: false },
    { cookies: `theme=dark; ${SIDEBAR_COOKIE_NAME}=false; x=1`, expected: false },
    { cookies: `${SIDEBAR_COOKIE_NAME}=maybe`, expected: null },
    { cookies: `other_${SIDEBAR_COOKIE_NAME}=false`, expected: null },
  ])('$cookies -> $expected', ({ cookies, expected }) => {
    expect(parseSidebarCookie(cookies)).toBe(expected);
  });
});

describe('sidebarCookie', () => {
  it.each([
    { open: true, expected: `${SIDEBAR_COOKIE_NAME}=true; path=/; max-age=604800; SameSite=Lax` },
    { open: false, expected: `${SIDEBAR_COOKIE_NAME}=false; path=/; max-age=604800; SameSite=Lax` },
  ])('$open', ({ open, expected }) => {
    expect(sidebarCookie(open)).toBe(expected);
    expect(parseSidebarCookie(sidebarCookie(open))).toBe(open);
  });
});

describe('isSidebarShortcut', () => {
  const none = { ctrlKey: false, metaKey: false, altKey: false, shiftKey: false };
  it.each([
    { name: 'ctrl+b', event: { ...none, key: 'b', ctrlKey: true }, expected: true },
    { name: 'cmd+b', event: { ...none, key: 'b', metaKey: true }, expected: true },
    { name: 'ctrl+B (caps lock)', event: { ...none, key: 'B', ctrlKey: true }, expected: true },
    { name: 'b alone', event: { ...none, key: 'b' }, expected: false },
    { name: 'ctrl+shift+b', event: { ...none, key: 'B', ctrlKey: true, shiftKey: true }, expected: false },
    { name: 'ctrl+alt+b', event: { ...none, key: 'b', ctrlKey: true, altKey: true }, expected: false },
    { name: 'ctrl+n', event: { ...none, key: 'n', ctrlKey: true }, expected: false },
  ])('$name -> $expected', ({ event, expected }) => {
    expect(isSidebarShortcut(event)).toBe(expected);
  });
});
