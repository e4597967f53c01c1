import type { Locator, Page } from '@playwright/test';
import { api, expect } from '../fixtures';

/** Shared steps of the shell specs (spec/000 §2 shell, §4 onboarding and theme). */

/**
 * Signs in by API like signInByApi, but leaves the first visit incomplete so the onboarding tour
 * opens by itself (signInByApi marks it completed).
 */
export async function signInFirstVisit(page: Page, email: string, password: string) {
  const res = await api(page.request, '/api/useraction', {
    action: 'login',
    user: { email, password },
    use_token_pairs: true,
  });
  expect(res.status).toBe(200);
  const { token_pair: pair, user } = res.body;
  await page.addInitScript(
    ([a, r, e, id]) => {
      if (!localStorage.getItem('refresh_token')) {
        localStorage.setItem('access_token', a);
        localStorage.setItem('refresh_token', r);
        localStorage.setItem('user_email', e);
        localStorage.setItem('user_id', id);
      }
    },
    [pair.access_token, pair.refresh_token, user.email, user.user_id] as const,
  );
  return { pair, user };
}

/** The onboarding tour dialog: the only dialog that carries the progress ring. */
export function tourDialog(page: Page): Locator {
  return page.getByRole('dialog').filter({ has: page.getByRole('img', { name: /^Step \d of 6$/ }) });
}

/** Waits for the signed-in shell to be on screen. */
export async function expectShell(page: Page) {
  await expect(page.getByRole('button', { name: 'Toggle sidebar' })).toBeVisible();
}

/** The user menu trigger in the top bar. */
export function userMenuTrigger(page: Page): Locator {
  return page.getByRole('button', { name: /^User menu/ });
}

export async function openUserMenu(page: Page): Promise<Locator> {
  await userMenuTrigger(page).click();
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  return menu;
}

/** The desktop sidebar's wrapper, which carries data-state expanded or collapsed. */
export function desktopSidebar(page: Page): Locator {
  return page.locator('[data-slot="sidebar"]:not([data-mobile])');
}

/** The path and query of the current address, as an object, for a readable comparison. */
export function currentAddress(page: Page): { path: string } & Record<string, string> {
  const url = new URL(page.url());
  return { path: url.pathname, ...Object.fromEntries(url.searchParams) };
}

export async function expectSignInPage(page: Page, search: Record<string, string> = { target: 'portal' }) {
  await expect.poll(() => currentAddress(page)).toEqual({ path: '/auth/login', ...search });
}

/** `class` of <html>, where the theme is applied. */
export function htmlHasDark(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.classList.contains('dark'));
}

/** Fails on console errors of a page other than the test's own (the fixture guards `page`). */
export function guardConsole(page: Page): () => string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const text = msg.text();
    if (/Failed to load resource|net::ERR_/.test(text)) return;
    errors.push(`console: ${text}`);
  });
  return () => errors;
}

/** A phone-width screenshot of what is on screen now (screenshots() resizes, which closes the mobile sheet). */
export async function phoneScreenshot(page: Page, name: string) {
  await page.screenshot({ path: `screenshots/${name}-390.png`, fullPage: false });
}

/**
 * Viewport-only shots at both widths, for overlays (dialogs, menus): a full-page shot of a long page
 * shows the fixed overlay over the first screen only, which is hard to judge.
 */
export async function viewportScreenshots(page: Page, name: string) {
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `screenshots/${name}-viewport-1280.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `screenshots/${name}-viewport-390.png` });
  await page.setViewportSize(size);
}
