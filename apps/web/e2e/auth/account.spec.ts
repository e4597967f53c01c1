import type { Page } from '@playwright/test';
import { isClientError } from '@portal/client';
import { useraction } from '@portal/contract';
import { expect, expectAccessible, expectSignInPage, portal, screenshots, test } from '../fixtures';
import { expectToast, inlineFailure, NEW_PASSWORD, submitSignIn, WRONG_PASSWORD } from './auth-helpers';

/** /dashboard/user/profile (spec/000 §2, §4, §5): change password, profile details, delete account. */

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

async function openProfile(page: Page) {
  await page.goto('/dashboard/user/profile');
  await expect(page.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
}

/** Whether the portal accepts this password now: refused sign-ins fail as `unauthenticated`. */
async function signInWorks(email: string, password: string): Promise<boolean> {
  try {
    await portal().call(useraction, 'login', { user: { email, password }, use_token_pairs: true });
    return true;
  } catch (err) {
    if (isClientError(err, 'unauthenticated')) return false;
    throw err;
  }
}

test('the profile page is accessible', async ({ page, signedIn: user }) => {
  await openProfile(page);
  await expect(field(page, 'Email')).toHaveValue(user.email);
  await expect(field(page, 'Email')).toHaveAttribute('readonly', '');
  await expect(page.getByText('Lite', { exact: true })).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, 'account-profile');
});

test.describe('change password', () => {
  // Each row: what is typed, and the message that must appear under which field.
  const rows: {
    rule: string;
    current: string;
    next: (email: string) => string;
    repeat?: string;
    field: string;
    message: string;
  }[] = [
    {
      rule: 'current password required',
      current: '',
      next: () => NEW_PASSWORD,
      field: 'Current password',
      message: 'Current password is required.',
    },
    {
      rule: 'minimum length',
      current: 'E2e-Robot-Pass-1!',
      next: () => 'Ab1!',
      field: 'New password',
      message: 'Password must be at least 8 characters.',
    },
    {
      rule: 'character classes',
      current: 'E2e-Robot-Pass-1!',
      next: () => 'alllowercase',
      field: 'New password',
      message: 'Password must contain: 1 uppercase, 1 number and 1 special character.',
    },
    {
      rule: 'repeat must match',
      current: 'E2e-Robot-Pass-1!',
      next: () => NEW_PASSWORD,
      repeat: `${NEW_PASSWORD}-typo`,
      field: 'Repeat new password',
      message: 'Passwords do not match.',
    },
    {
      rule: 'new differs from current',
      current: 'E2e-Robot-Pass-1!',
      next: () => 'E2e-Robot-Pass-1!',
      field: 'New password',
      message: 'New password cannot be the same as the current password.',
    },
    {
      rule: 'new is not the email',
      current: 'E2e-Robot-Pass-1!',
      // The account email with a capital, so only the email rule fails (it ignores case).
      next: (email) => email.charAt(0).toUpperCase() + email.slice(1),
      field: 'New password',
      message: 'Password must not be the same as email.',
    },
  ];

  for (const row of rows) {
    test(`shows "${row.message}" (${row.rule})`, async ({ page, signedIn: user }) => {
      await openProfile(page);
      const next = row.next(user.email);
      if (row.current) await field(page, 'Current password').fill(row.current);
      await field(page, 'New password').fill(next);
      await field(page, 'Repeat new password').fill(row.repeat ?? next);
      await page.getByRole('button', { name: 'Change password', exact: true }).click();
      await expect(field(page, row.field)).toHaveAccessibleDescription(row.message);
      await expect(page.getByRole('alert').filter({ hasText: row.message })).toBeVisible();
      if (row.rule === 'repeat must match') await screenshots(page, 'account-change-password-mismatch');
      // Nothing was sent: the password is unchanged.
      expect(await signInWorks(user.email, user.password)).toBe(true);
    });
  }

  test('a wrong current password shows Failed to update password', async ({ page, signedIn: user }) => {
    await openProfile(page);
    await field(page, 'Current password').fill(WRONG_PASSWORD);
    await field(page, 'New password').fill(NEW_PASSWORD);
    await field(page, 'Repeat new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password', exact: true }).click();
    await expectToast(page, 'Failed to update password');
    expect(await signInWorks(user.email, user.password)).toBe(true);
    expect(await signInWorks(user.email, NEW_PASSWORD)).toBe(false);
  });

  test('success shows Password Changed, resets the form, and the new password works', async ({
    page,
    signedIn: user,
  }) => {
    await openProfile(page);
    await field(page, 'Current password').fill(user.password);
    await field(page, 'New password').fill(NEW_PASSWORD);
    await field(page, 'Repeat new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password', exact: true }).click();
    await expectToast(page, 'Password Changed');
    for (const label of ['Current password', 'New password', 'Repeat new password'])
      await expect(field(page, label)).toHaveValue('');
    // This tab's session survives the change.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
    expect(await signInWorks(user.email, user.password)).toBe(false);
    expect(await signInWorks(user.email, NEW_PASSWORD)).toBe(true);
  });
});

test.describe('profile details', () => {
  test('an update is confirmed and survives a reload', async ({ page, signedIn: _signedIn }) => {
    await openProfile(page);
    await field(page, 'Name').fill('Ada Lovelace');
    await field(page, 'Organisation').fill('Analytical Engines');
    await field(page, 'Country').selectOption({ label: 'Germany' });
    await page.getByRole('button', { name: 'Save changes', exact: true }).click();
    await expectToast(page, 'Profile Details Updated');

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
    await expect(field(page, 'Name')).toHaveValue('Ada Lovelace');
    await expect(field(page, 'Organisation')).toHaveValue('Analytical Engines');
    await expect(field(page, 'Country')).toHaveValue('Germany');
  });

  test('fields validate live with the error under the field', async ({ page, signedIn: _signedIn }) => {
    await openProfile(page);
    await field(page, 'Name').fill('');
    await expect(field(page, 'Name')).toHaveAccessibleDescription('Please enter your name');
    await field(page, 'Name').fill('Al');
    await expect(field(page, 'Name')).toHaveAccessibleDescription('Name must be at least 3 characters');
    await field(page, 'Name').fill('Alan');
    await expect(field(page, 'Name')).not.toHaveAccessibleDescription(/./);
    await field(page, 'Organisation').fill('X');
    await expect(field(page, 'Organisation')).toHaveAccessibleDescription(
      'Organisation name is too short (minimum is 2 characters)',
    );
    await field(page, 'Country').selectOption({ label: 'Select country' });
    await expect(field(page, 'Country')).toHaveAccessibleDescription('Please enter your country');

    // An invalid form is not sent.
    await page.getByRole('button', { name: 'Save changes', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Organisation name is too short' })).toBeVisible();
    await page.reload();
    await expect(field(page, 'Name')).toHaveValue('Eve Tester');
  });
});

test.describe('delete account', () => {
  test('the button waits for the typed confirmation and the password; a wrong password is refused', async ({
    page,
    signedIn: user,
  }) => {
    await openProfile(page);
    await page.getByRole('button', { name: 'Delete account', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await expect(dialog).toBeVisible();
    const confirmButton = dialog.getByRole('button', { name: 'Permanently delete account', exact: true });
    await expect(confirmButton).toBeDisabled();

    await dialog.getByLabel('Type "delete my account" to confirm', { exact: true }).fill('delete my acount');
    await dialog.getByLabel('Password', { exact: true }).fill(WRONG_PASSWORD);
    await expect(confirmButton).toBeDisabled();
    await dialog.getByLabel('Password', { exact: true }).fill('');
    // The phrase is compared without case.
    await dialog.getByLabel('Type "delete my account" to confirm', { exact: true }).fill('Delete My Account');
    await expect(confirmButton).toBeDisabled();
    await dialog.getByLabel('Password', { exact: true }).fill(WRONG_PASSWORD);
    await expect(confirmButton).toBeEnabled();
    await expectAccessible(page);
    await screenshots(page, 'account-delete-dialog');

    await confirmButton.click();
    await expectToast(page, 'Error', 'Failed to delete account. Please check your password and try again.');
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/user\/profile$/);
    expect(await signInWorks(user.email, user.password)).toBe(true);
  });

  test('deleting signs out, and the account is gone', async ({ page, signedIn: user }) => {
    await openProfile(page);
    await page.getByRole('button', { name: 'Delete account', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByLabel('Type "delete my account" to confirm', { exact: true }).fill('delete my account');
    await dialog.getByLabel('Password', { exact: true }).fill(user.password);
    await dialog.getByRole('button', { name: 'Permanently delete account', exact: true }).click();
    await expectToast(page, 'Account Deleted');
    await expectSignInPage(page);
    expect(await page.evaluate(() => localStorage.getItem('refresh_token'))).toBeNull();

    await submitSignIn(page, user.email, user.password);
    await expect(inlineFailure(page, 'Authentication Failed')).toBeVisible();
    await expect(page).toHaveURL(/\/auth\/login/);
  });
});
