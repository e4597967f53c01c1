import type { Locator, Page } from '@playwright/test';
import { expect } from '../fixtures';

/** Shared steps of the shell specs (spec/000 §2 shell, §4 onboarding and theme). */

/** The onboarding tour dialog: the only dialog that carries the progress ring. */
export function tourDialog(page: Page): Locator {
  return page.getByRole('dialog').filter({ has: page.getByRole('img', { name: /^Step \d of 6$/ }) });
}

/**
 * Waits for the signed-in shell to be on screen. Drawn, that is: a modal dialog (the onboarding
 * tour opens a second after the load) hides the shell from the accessibility tree, and on a slow
 * machine the tour could be up before this check came round.
 */
export async function expectShell(page: Page) {
  await expect(page.getByRole('button', { name: 'Toggle sidebar', includeHidden: true })).toBeVisible();
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

/** `class` of <html>, where the theme is applied. */
export function htmlHasDark(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.classList.contains('dark'));
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
