import { COMMON_PASSWORD_MESSAGE } from '@portal/contract';
import { expect, expectAccessible, readMail, screenshots, test, uniqueEmail } from '../fixtures';
import { expectToast, skipOnboarding } from './auth-helpers';

/** Issue 14 deliverable 3: a common password is refused at sign-up, the server's message under the field. */

test.beforeEach(({ page }) => skipOnboarding(page));

test('a common password is refused at sign-up, with the rule shown under the password field', async ({ page }) => {
  const email = uniqueEmail('common');
  await page.goto('/auth/signup');
  await page.getByLabel('Name', { exact: true }).fill('Casey Common');
  await page.getByLabel('Year of birth', { exact: true }).selectOption('1990');
  await page.getByLabel('Country', { exact: true }).selectOption({ label: 'Ireland' });
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Confirm email', { exact: true }).fill(email);
  // It passes every character rule of the form, so only the server's list can refuse it.
  await page.getByLabel('Password', { exact: true }).fill('Password1!');
  await page.getByLabel('Confirm password', { exact: true }).fill('Password1!');
  await page.getByRole('checkbox', { name: /I agree to the terms of service/ }).click();
  await page.getByRole('button', { name: 'Create account', exact: true }).click();

  const password = page.getByLabel('Password', { exact: true });
  await expect(password).toHaveAccessibleDescription(COMMON_PASSWORD_MESSAGE);
  await expect(password).toBeFocused();
  await expectToast(page, 'Sign-up Failed');
  await expect(page.getByRole('heading', { name: 'Check your email', exact: true })).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, 'auth-signup-common-password');

  // A less common one goes through.
  await password.fill('Casey-Robots-2031%');
  await page.getByLabel('Confirm password', { exact: true }).fill('Casey-Robots-2031%');
  await expect(password).not.toHaveAccessibleDescription(COMMON_PASSWORD_MESSAGE);
  await page.getByRole('button', { name: 'Create account', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Check your email', exact: true })).toBeVisible();
  expect(await readMail(email, { subject: /\/auth\/verify\// })).not.toContain('Casey Common');
});
