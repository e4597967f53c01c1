import { expect, expectAccessible, expectSignInPage, screenshots, test } from '../fixtures';

/** spec/000 §2: the search parameters of /auth/login, /auth/register and /auth/complete. */

const PARSE_ERROR = 'Failed to parse search params. Did you mean to navigate to this page?';

test.describe('sign-in search parameters', () => {
  test('an invalid target falls back to portal', async ({ page }) => {
    await page.goto('/auth/login?target=mainframe');
    await expectSignInPage(page);
    await expect(page.getByRole('button', { name: 'Sign in to Portal', exact: true })).toBeVisible();
    await expect(page.getByRole('checkbox', { name: 'Remember me', exact: true })).toBeVisible();
  });

  test('without parameters the target is portal', async ({ page }) => {
    await page.goto('/auth/login');
    await expectSignInPage(page);
    await expect(page.getByRole('button', { name: 'Sign in to Portal', exact: true })).toBeVisible();
  });

  test('loginMode=login-to-hub shows Sign in to Hub', async ({ page }) => {
    await page.goto('/auth/login?loginMode=login-to-hub');
    await expectSignInPage(page, { target: 'hub', loginMode: 'login-to-hub' });
    await expect(page.getByRole('button', { name: 'Sign in to Hub', exact: true })).toBeVisible();
    // Remember me is for the portal target only.
    await expect(page.getByRole('checkbox', { name: 'Remember me', exact: true })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Sign in to Portal', exact: true })).toHaveCount(0);
  });

  test('/auth/register redirects to sign-in with target=portal', async ({ page }) => {
    await page.goto('/auth/register');
    await expectSignInPage(page);
    await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();
  });

  test('a reset link without a token leads to sign-in', async ({ page }) => {
    await page.goto('/auth/password/reset');
    await expectSignInPage(page);
  });
});

test.describe('/auth/complete', () => {
  test('success shows Authentication Complete with next steps', async ({ page }) => {
    await page.goto('/auth/complete?success=true');
    await expect(page.getByRole('heading', { name: 'Authentication Complete', exact: true })).toBeVisible();
    await expect(page.getByText(/Open the Hub from the system status area/)).toBeVisible();
    await expect(page.getByRole('link', { name: /documentation/ })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Return to Dashboard', exact: true })).toBeVisible();
    await expectAccessible(page);
    await screenshots(page, 'auth-complete-success');
  });

  test('failure shows the error message', async ({ page }) => {
    // Written the way the hub writes it (URLSearchParams: spaces become '+').
    const params = new URLSearchParams({ success: 'false', error_message: 'The hub could not store the credentials.' });
    await page.goto(`/auth/complete?${params}`);
    await expect(page.getByRole('heading', { name: 'Authentication failed', exact: true })).toBeVisible();
    await expect(page.getByRole('alert')).toContainText('The hub could not store the credentials.');
    await expect(page.getByRole('link', { name: 'Return to Dashboard', exact: true })).toBeVisible();
    await expectAccessible(page);
    await screenshots(page, 'auth-complete-failure');
  });

  test('failure without a message says so', async ({ page }) => {
    await page.goto('/auth/complete?success=false');
    await expect(page.getByRole('alert')).toContainText('Error, but no error provided');
  });

  test('unparsable parameters show the parse message', async ({ page }) => {
    for (const path of ['/auth/complete', '/auth/complete?success=perhaps']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: 'Authentication failed', exact: true })).toBeVisible();
      await expect(page.getByRole('alert')).toContainText(PARSE_ERROR);
      expect(new URL(page.url()).searchParams.get('success')).toBe('false');
    }
  });
});
