import { api, createVerifiedUser, expect, guardConsole, signInByApi, test } from '../fixtures';
import { expectToast, expiredLookingJwt, logOutThroughUserMenu } from './auth-helpers';

/** spec/000 §4 Session: tabs share logins, logouts and refreshes. */

test('logging out in one tab sends the other to sign-in without a reload', async ({ page, request }) => {
  const user = await createVerifiedUser(request);
  await signInByApi(page, user.email, user.password);
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

test('a refresh racing in two tabs keeps both signed in', async ({ page, request }) => {
  const user = await createVerifiedUser(request);
  const login = await api(request, '/api/useraction', {
    action: 'login',
    user: { email: user.email, password: user.password },
    use_token_pairs: true,
  });
  expect(login.status).toBe(200);
  const { token_pair: pair, user: self } = login.body;

  // A stored session whose access token has expired; the refresh token is still good.
  await page.goto('/auth/login');
  await page.evaluate(
    ([access, refresh, email, id]) => {
      localStorage.setItem('access_token', access);
      localStorage.setItem('refresh_token', refresh);
      localStorage.setItem('user_email', email);
      localStorage.setItem('user_id', id);
      localStorage.setItem('hasCompletedFirstVisit', 'true');
    },
    [expiredLookingJwt(), pair.refresh_token, self.email, self.user_id] as const,
  );

  const context = page.context();
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

  // Still signed in a moment later (a refresh-token reuse would have ended the session).
  await a.waitForTimeout(1500);
  for (const tab of [a, b]) {
    await expect(tab).toHaveURL(/\/dashboard\/user\/profile$/);
    await expect(tab.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
  }

  // The session still works after: a save and a fresh load both succeed.
  await a.getByLabel('Organisation', { exact: true }).fill('After The Race');
  await a.getByRole('button', { name: 'Save changes', exact: true }).click();
  await expectToast(a, 'Profile Details Updated');
  await b.reload();
  await expect(b.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
  await expect(b.getByLabel('Organisation', { exact: true })).toHaveValue('After The Race');
  for (const e of errors) expect(e()).toEqual([]);
});
