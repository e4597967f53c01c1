import type { Page } from '@playwright/test';
import { expect, expectAccessible, linkIn, readMail, screenshots, test } from '../fixtures';
import { expectToast, inlineFailure, NEW_PASSWORD, skipOnboarding, submitSignIn } from './auth-helpers';

/** spec/000 §4 Forgot password and Reset, §5 Reset password form, §8 reset failure. */

test.beforeEach(({ page }) => skipOnboarding(page));

const RESET_LINK = /\/auth\/password\/reset\//;

/** Asks for a reset link through the sign-in page and answers the link from the outbox. */
async function requestResetLink(page: Page, email: string): Promise<string> {
  const after = Date.now() - 1000;
  await page.goto('/auth/login');
  await page.getByRole('button', { name: 'Forgot Password?', exact: true }).click();
  await page.getByLabel('Recovery email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Recover', exact: true }).click();
  await expectToast(page, 'Password Reset Initiated', 'Check your email to reset your password!');
  return linkIn(await readMail(email, { subject: RESET_LINK, after }), '/auth/password/reset/');
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

test('forgot password, reset from the emailed link, then sign in with the new password', async ({
  page,
  account: user,
}) => {
  const link = await requestResetLink(page, user.email);
  expect(new URL(link).origin).toBe(new URL(page.url()).origin);

  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Reset Password', exact: true })).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, 'auth-reset');

  // Live validation (spec/000 §5): each message appears under its field as it is typed.
  const email = field(page, 'Email');
  const password = field(page, 'New password');
  const confirm = field(page, 'Confirm new password');
  await email.fill('not-an-email');
  await expect(email).toHaveAccessibleDescription('Please enter a valid email address');
  await email.fill(user.email);
  await expect(email).not.toHaveAccessibleDescription(/./);

  const rules: [string, string][] = [
    ['Sh0rt!', 'Password must be at least 8 characters'],
    ['lowercase-only-1', 'Password must contain at least one uppercase letter'],
    ['UPPERCASE-ONLY-1', 'Password must contain at least one lowercase letter'],
    ['No-Digits-Here!', 'Password must contain at least one number'],
    ['NoSpecial12345', 'Password must contain at least one special character'],
    // The email itself, with a capital so every other rule passes (compared without case).
    [user.email.charAt(0).toUpperCase() + user.email.slice(1), 'Password must not be the same as email'],
  ];
  for (const [value, message] of rules) {
    await password.fill(value);
    await expect(password, `"${value}"`).toHaveAccessibleDescription(message);
  }
  await password.fill(NEW_PASSWORD);
  await expect(password).not.toHaveAccessibleDescription(/./);
  await confirm.fill(`${NEW_PASSWORD}x`);
  await expect(confirm).toHaveAccessibleDescription('Passwords do not match');
  await screenshots(page, 'auth-reset-mismatch');
  await confirm.fill(NEW_PASSWORD);
  await expect(confirm).not.toHaveAccessibleDescription(/./);

  // The show/hide toggles.
  await expect(password).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Show new password', exact: true }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await expect(page.getByRole('button', { name: 'Show new password', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await page.getByRole('button', { name: 'Show confirm new password', exact: true }).click();
  await expect(confirm).toHaveAttribute('type', 'text');

  await page.getByRole('button', { name: 'Reset password', exact: true }).click();
  await expectToast(page, 'Password Reset');
  // Reset goes to /dashboard, which (signed out) leads to sign-in.
  await expect(page).toHaveURL(/\/auth\/login\?/);

  // The old password no longer works, the new one does.
  await page.goto('/auth/login');
  await submitSignIn(page, user.email, user.password);
  await expect(inlineFailure(page, 'Authentication Failed')).toBeVisible();
  await page.goto('/auth/login');
  await submitSignIn(page, user.email, NEW_PASSWORD);
  await expectToast(page, 'Login Successful', 'Welcome back!');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a used reset link is refused', async ({ page, account: user }) => {
  const link = await requestResetLink(page, user.email);

  await page.goto(link);
  await field(page, 'Email').fill(user.email);
  await field(page, 'New password').fill(NEW_PASSWORD);
  await field(page, 'Confirm new password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Reset password', exact: true }).click();
  await expectToast(page, 'Password Reset');
  await expect(page).toHaveURL(/\/auth\/login\?/);

  // The same link again: the page says it is spent, and the server refuses it.
  await page.goto(link);
  await expect(
    page.getByRole('alert').filter({ hasText: 'This reset link has expired or was already used' }),
  ).toBeVisible();
  await field(page, 'Email').fill(user.email);
  await field(page, 'New password').fill('Another-Robot-Pass-3#');
  await field(page, 'Confirm new password').fill('Another-Robot-Pass-3#');
  await page.getByRole('button', { name: 'Reset password', exact: true }).click();
  await expectToast(page, 'Password Reset Failed');
  await expect(page).toHaveURL(/\/auth\/password\/reset\//);

  // The password is still the one set with the first use.
  await page.goto('/auth/login');
  await submitSignIn(page, user.email, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('the Recover button checks the email first', async ({ page }) => {
  await page.goto('/auth/login');
  await page.getByRole('button', { name: 'Forgot Password?', exact: true }).click();
  await page.getByRole('button', { name: 'Recover', exact: true }).click();
  await expectToast(page, 'Validation Error', 'Please enter an email address');
  await page.getByLabel('Recovery email', { exact: true }).fill('robot@');
  await page.getByRole('button', { name: 'Recover', exact: true }).click();
  await expectToast(page, 'Validation Error', 'Please enter a valid email address');
  await expect(page.getByLabel('Recovery email', { exact: true })).toHaveAccessibleDescription(
    'Please enter a valid email address',
  );
});

test('a signed-in user opening a reset link goes to the dashboard', async ({ page, account: user }) => {
  await page.goto('/auth/login');
  await submitSignIn(page, user.email, user.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/auth/password/reset/some-token');
  await expect(page).toHaveURL(/\/dashboard$/);
  // Signed out, the same address is the reset page.
  await page.evaluate(() => localStorage.clear());
  await page.goto('/auth/password/reset/some-token');
  await expect(page.getByRole('heading', { name: 'Reset Password', exact: true })).toBeVisible();
});
