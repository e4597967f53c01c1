import { useraction } from '@portal/contract';
import {
  expect,
  expectAccessible,
  expectSignInPage,
  PASSWORD,
  portal,
  screenshots,
  test,
  uniqueEmail,
} from '../fixtures';
import {
  expectToast,
  inlineFailure,
  logOutThroughUserMenu,
  skipOnboarding,
  submitSignIn,
  toast,
  WRONG_PASSWORD,
} from './auth-helpers';

/** spec/000 §2 /auth/login, §4 Login and Logout, §8 error catalogue. */

test.beforeEach(({ page }) => skipOnboarding(page));

test.describe('sign in and out', () => {
  test('signs in through the form and out through the user menu', async ({ page, account: user }) => {
    await page.goto('/auth/login');
    await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();
    // Remember me is offered (and on) for the portal target.
    await expect(page.getByRole('checkbox', { name: 'Remember me', exact: true })).toBeChecked();

    await submitSignIn(page, user.email, user.password);
    await expectToast(page, 'Login Successful', 'Welcome back!');
    await expect(page).toHaveURL(/\/dashboard$/);
    // Remembered: the session lives in local storage.
    expect(await page.evaluate(() => Boolean(localStorage.getItem('refresh_token')))).toBe(true);

    await logOutThroughUserMenu(page, user.email);
    await expectToast(page, 'Logged Out');
    await expectSignInPage(page);
    expect(
      await page.evaluate(() => [localStorage.getItem('refresh_token'), sessionStorage.getItem('refresh_token')]),
    ).toEqual([null, null]);
    // Signed out for real: the dashboard sends us back to sign-in.
    await page.goto('/dashboard');
    await expectSignInPage(page, { redirect: '/dashboard', target: 'portal' });
  });

  test('remember me off keeps the session in session storage only', async ({ page, account: user }) => {
    await page.goto('/auth/login');
    await page.getByRole('checkbox', { name: 'Remember me', exact: true }).click();
    await expect(page.getByRole('checkbox', { name: 'Remember me', exact: true })).not.toBeChecked();
    await submitSignIn(page, user.email, user.password);
    await expect(page).toHaveURL(/\/dashboard$/);

    const stored = () =>
      page.evaluate(() => ({
        local: localStorage.getItem('refresh_token'),
        session: Boolean(sessionStorage.getItem('refresh_token')),
      }));
    expect(await stored()).toEqual({ local: null, session: true });

    // A new page load in the same tab keeps the session (session storage survives it), still not in local storage.
    await page.goto('/dashboard/user/profile');
    await expect(page.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
    expect(await stored()).toEqual({ local: null, session: true });

    // A new tab does not share session storage: it is signed out.
    const other = await page.context().newPage();
    await other.goto('/dashboard/user/profile');
    await expect(other).toHaveURL(/\/auth\/login\?/);
    await other.close();
  });

  test('a signed-in user opening the sign-in page goes to the dashboard', async ({ page, signedIn: _signedIn }) => {
    await page.goto('/auth/login');
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});

test.describe('sign-in errors (spec/000 §8)', () => {
  test('a wrong password shows Authentication Failed', async ({ page, account: user }) => {
    await page.goto('/auth/login');
    await submitSignIn(page, user.email, WRONG_PASSWORD);
    const text = 'Invalid email or password. Please check your credentials and try again.';
    await expectToast(page, 'Authentication Failed', text);
    await expect(inlineFailure(page, 'Authentication Failed')).toContainText(text);
    await expect(page).toHaveURL(/\/auth\/login/);

    // spec/000 §4: editing the email clears the form error (and the password).
    await page.getByLabel('Email', { exact: true }).press('End');
    await page.getByLabel('Email', { exact: true }).pressSequentially('x');
    await expect(inlineFailure(page, 'Authentication Failed')).toHaveCount(0);
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
  });

  test('the failed sign-in screen is accessible', async ({ page, account: user }) => {
    await page.goto('/auth/login');
    await submitSignIn(page, user.email, WRONG_PASSWORD);
    await expectToast(page, 'Authentication Failed');
    await screenshots(page, 'auth-login-error');
    // The toast's own contrast is checked in the next test; here the inline notice once it has gone (5 s).
    await expect(toast(page, 'Authentication Failed')).toHaveCount(0, { timeout: 15_000 });
    await expect(inlineFailure(page, 'Authentication Failed')).toBeVisible();
    await expectAccessible(page);
  });

  test('an error toast meets the contrast minimum', async ({ page, account: user }) => {
    await page.goto('/auth/login');
    await submitSignIn(page, user.email, WRONG_PASSWORD);
    await expectToast(page, 'Authentication Failed');
    await expectAccessible(page);
  });

  test('an unverified account shows Email Verification Required', async ({ page }) => {
    const email = uniqueEmail('unverified');
    await portal().call(useraction, 'UserRegister', {
      user: {
        email,
        password: PASSWORD,
        name: 'Una Verified',
        year_born: 1990,
        country: 'United Kingdom',
        company: '',
        marketing: false,
        termsagreed: true,
      },
    });

    await page.goto('/auth/login');
    await submitSignIn(page, email, PASSWORD);
    const text = 'Please check your email for a verification link to verify your account before signing in.';
    await expectToast(page, 'Email Verification Required', text);
    await expect(inlineFailure(page, 'Email Verification Required')).toContainText(text);
    await expect(page).toHaveURL(/\/auth\/login/);
    expect(await page.evaluate(() => localStorage.getItem('refresh_token'))).toBeNull();
  });

  test('five wrong passwords lock the account', async ({ page, account: user }) => {
    await page.goto('/auth/login');
    for (let attempt = 1; attempt <= 4; attempt++) {
      await submitSignIn(page, user.email, WRONG_PASSWORD);
      await expect(inlineFailure(page, 'Authentication Failed')).toBeVisible();
    }
    await submitSignIn(page, user.email, WRONG_PASSWORD);
    const text = 'Your account is temporarily locked due to too many failed attempts. Please try again later.';
    await expect(inlineFailure(page, 'Account Locked')).toContainText(text);
    await expectToast(page, 'Account Locked', text);

    // While locked, even the right password is refused.
    await submitSignIn(page, user.email, user.password);
    await expect(inlineFailure(page, 'Account Locked')).toBeVisible();
    await expect(page).toHaveURL(/\/auth\/login/);
    await expect(toast(page, 'Login Successful')).toHaveCount(0);
  });
});

test('a deep link is reopened after sign-in', async ({ page, account: user }) => {
  await page.goto('/dashboard/user/profile');
  await expectSignInPage(page, { redirect: '/dashboard/user/profile', target: 'portal' });
  await submitSignIn(page, user.email, user.password);
  await expectToast(page, 'Login Successful', 'Welcome back!');
  await expect(page).toHaveURL(/\/dashboard\/user\/profile$/);
  await expect(page.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
});

test('the portal sign-in page is accessible', async ({ page }) => {
  await page.goto('/auth/login?target=portal');
  await expect(page.getByRole('button', { name: 'Sign in to Portal', exact: true })).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, 'auth-login-portal');
  // The Forgot Password section open, too.
  await page.getByRole('button', { name: 'Forgot Password?', exact: true }).click();
  await expect(page.getByLabel('Recovery email', { exact: true })).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, 'auth-login-portal-forgot');
});
