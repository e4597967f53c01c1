import {
  expect,
  expectAccessible,
  expectSignInPage,
  linkIn,
  readMail,
  screenshots,
  test,
  uniqueEmail,
} from '../fixtures';
import { expectToast, skipOnboarding, submitSignIn } from './auth-helpers';

/** Issue 3 deliverable 3: /auth/signup -> "check your email" -> emailed link -> verified -> sign in. */

test.beforeEach(({ page }) => skipOnboarding(page));

const SIGNUP_PASSWORD = 'Signup-Robot-Pass-4%';

test('sign up, verify from the emailed link, then sign in', async ({ page }) => {
  const email = uniqueEmail('signup');
  await page.goto('/auth/login');
  await page.getByRole('link', { name: 'Create an account', exact: true }).click();
  await expect(page).toHaveURL(/\/auth\/signup(\?|$)/);
  await expect(page.getByRole('heading', { name: 'Create an account', exact: true })).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, 'auth-signup');

  // Submitting the empty form shows the rules under their fields.
  await page.getByRole('button', { name: 'Create account', exact: true }).click();
  await expect(page.getByLabel('Name', { exact: true })).toHaveAccessibleDescription('Please enter your name');
  await expect(page.getByLabel('Country', { exact: true })).toHaveAccessibleDescription('Please enter your country');
  await expect(page.getByLabel('Email', { exact: true })).toHaveAccessibleDescription('Please enter an email address');
  await expect(page.getByText('You must agree to the terms and the privacy policy')).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, 'auth-signup-errors');

  await page.getByLabel('Name', { exact: true }).fill('Sam Signup');
  await page.getByLabel('Organisation (optional)', { exact: true }).fill('Signup Robotics');
  await page.getByLabel('Year of birth', { exact: true }).selectOption('1988');
  await page.getByLabel('Country', { exact: true }).selectOption({ label: 'Ireland' });
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Confirm email', { exact: true }).fill(email.replace('@', 'x@'));
  await expect(page.getByLabel('Confirm email', { exact: true })).toHaveAccessibleDescription('Emails do not match');
  await page.getByLabel('Confirm email', { exact: true }).fill(email);
  await expect(page.getByLabel('Confirm email', { exact: true })).not.toHaveAccessibleDescription(
    'Emails do not match',
  );
  await page.getByLabel('Password', { exact: true }).fill(SIGNUP_PASSWORD);
  await page.getByLabel('Confirm password', { exact: true }).fill(SIGNUP_PASSWORD);
  await page.getByRole('checkbox', { name: /I agree to the terms of service/ }).click();
  await page.getByRole('button', { name: 'Create account', exact: true }).click();

  await expect(page.getByRole('heading', { name: 'Check your email', exact: true })).toBeVisible();
  await expect(page.getByRole('status')).toContainText(email);
  await expectAccessible(page);
  await screenshots(page, 'auth-signup-check-email');

  // Not verified yet: signing in is refused.
  await page.getByRole('link', { name: 'Go to sign in', exact: true }).click();
  await expectSignInPage(page);
  await submitSignIn(page, email, SIGNUP_PASSWORD);
  await expectToast(page, 'Email Verification Required');

  const link = linkIn(await readMail(email, { subject: /\/auth\/verify\// }), '/auth/verify/');
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Email verified', exact: true })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, 'auth-verify');

  await page.getByRole('link', { name: 'Sign in', exact: true }).click();
  await expectSignInPage(page);
  await submitSignIn(page, email, SIGNUP_PASSWORD);
  await expectToast(page, 'Login Successful', 'Welcome back!');
  await expect(page).toHaveURL(/\/dashboard$/);

  // The link works once.
  await page.evaluate(() => localStorage.clear());
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Link not valid', exact: true })).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, 'auth-verify-invalid');
});
