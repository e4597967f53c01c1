import { expect, guardConsole, loginByApi, test } from '../fixtures';
import { expectToast, expiredLookingJwt, logOutThroughUserMenu } from './auth-helpers';

/** spec/000 §4 Session: tabs share logins, logouts and refreshes. */

test('logging out in one tab sends the other to sign-in without a reload', async ({ page, signedIn: user }) => {
  await page.goto('/dashboard/user/profile');
  await expect(page.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();

  const other = await page.context().newPage();
  const otherErrors = guardConsole(other);
  await other.goto('/dashboard/user/profile');
  await expect(other.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
  // Marks this document: a reload would lose the mark.
  await other.evaluate(() => {
    (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
  });

  await logOutThroughUserMenu(page, user.email);
  await expectToast(page, 'Logged Out');
  await expect(page).toHaveURL(/\/auth\/login\?target=portal$/);

  await expect(other).toHaveURL(/\/auth\/login\?/);
  await expect(other.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();
  expect(await other.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  expect(otherErrors()).toEqual([]);
});

test('a refresh racing in two tabs keeps both signed in', async ({ page, account: user, baseURL }) => {
  const { pair, user: self } = await loginByApi(user.email, user.password);

  // A stored session whose access token has expired; the refresh token is still good.
  const context = page.context();
  await context.setStorageState({
    cookies: [],
    origins: [
      {
        origin: new URL(baseURL as string).origin,
        localStorage: [
          { name: 'access_token', value: expiredLookingJwt() },
          { name: 'refresh_token', value: pair.refresh_token },
          { name: 'user_email', value: self.email },
          { name: 'user_id', value: self.user_id },
          { name: 'hasCompletedFirstVisit', value: 'true' },
        ],
      },
    ],
  });
  const [a, b] = await Promise.all([context.newPage(), context.newPage()]);
  const errors = [guardConsole(a), guardConsole(b)];
  await Promise.all([a.goto('/dashboard/user/profile'), b.goto('/dashboard/user/profile')]);
  for (const tab of [a, b]) {
    await expect(tab.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
    await expect(tab.getByLabel('Email', { exact: true })).toHaveValue(user.email);
  }

  // Both again at once, now with the access token expired under them: each tab's call refreshes.
  await a.evaluate((token) => localStorage.setItem('access_token', token), expiredLookingJwt());
  await a.getByLabel('Name', { exact: true }).fill('Racing Tab A');
  await b.getByLabel('Name', { exact: true }).fill('Racing Tab B');
  await Promise.all([
    a.getByRole('button', { name: 'Save changes', exact: true }).click(),
    b.getByRole('button', { name: 'Save changes', exact: true }).click(),
  ]);
  await expectToast(a, 'Profile Details Updated');
  await expectToast(b, 'Profile Details Updated');

  // Still signed in: a refresh-token reuse would have revoked the session, so a save and a fresh
  // load, each needing the server to accept it, both succeed after the race.
  for (const tab of [a, b]) {
    await expect(tab).toHaveURL(/\/dashboard\/user\/profile$/);
    await expect(tab.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
  }
  await a.getByLabel('Organisation', { exact: true }).fill('After The Race');
  await a.getByRole('button', { name: 'Save changes', exact: true }).click();
  await expectToast(a, 'Profile Details Updated');
  await b.reload();
  await expect(b.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
  await expect(b.getByLabel('Organisation', { exact: true })).toHaveValue('After The Race');
  for (const e of errors) expect(e()).toEqual([]);
});
