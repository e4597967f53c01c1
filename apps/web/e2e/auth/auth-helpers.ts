import type { Locator, Page } from '@playwright/test';
import { expect } from '../fixtures';

/** Shared steps of the sign-in and account specs. */

export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const exactly = (text: string) => new RegExp(`^${escapeRegExp(text)}$`);

/** A sonner toast by its exact title. */
export function toast(page: Page, title: string): Locator {
  return page.locator('[data-sonner-toast]').filter({ has: page.locator('[data-title]', { hasText: exactly(title) }) });
}

/** Waits for a toast with this title (and, when given, this text). */
export async function expectToast(page: Page, title: string, text?: string) {
  const t =
    text === undefined
      ? toast(page, title)
      : toast(page, title).filter({ has: page.locator('[data-description]', { hasText: exactly(text) }) });
  await expect(t.first(), `toast "${title}"${text === undefined ? '' : ` "${text}"`}`).toBeVisible();
}

/** The inline notice of a failed sign-in (the alert under the form). */
export function inlineFailure(page: Page, title: string): Locator {
  return page.getByRole('alert').filter({ hasText: title });
}

/** A password everybody can remember, satisfying every rule of spec/000 §5. */
export const NEW_PASSWORD = 'Fresh-Robot-Pass-2?';
export const WRONG_PASSWORD = 'Not-The-Password-9!';

/**
 * Marks the first visit as done before the app loads, so the onboarding tour (its own spec) does
 * not open over the dashboard after a sign-in through the form.
 */
export async function skipOnboarding(page: Page) {
  await page.addInitScript(() => localStorage.setItem('hasCompletedFirstVisit', 'true'));
}

/** Fills the sign-in form and submits it, resolving once the login call has answered. */
export async function submitSignIn(page: Page, email: string, password: string, button = 'Sign in to Portal') {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/useraction') && r.request().method() === 'POST'),
    page.getByRole('button', { name: button, exact: true }).click(),
  ]);
}

/**
 * The user menu of the signed-in shell (spec/000 §2 User menu): a trigger button named with the
 * user's name and email, and a "Log out" entry.
 */
export async function logOutThroughUserMenu(page: Page, email: string) {
  const trigger = page.getByRole('button', { name: new RegExp(escapeRegExp(email)) });
  await expect(trigger, 'the user menu of the signed-in shell (spec/000 §2)').toBeVisible();
  await trigger.click();
  await page.getByRole('menuitem', { name: 'Log out', exact: true }).click();
}

/** A JWT that is well formed but expired an hour ago (the signature is never checked client-side). */
export function expiredLookingJwt(): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: 'expired', iat: now - 7200, exp: now - 3600 })}.${Buffer.from('not-a-signature').toString('base64url')}`;
}
