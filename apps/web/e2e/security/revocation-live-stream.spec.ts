import type { Page } from '@playwright/test';
import { expectToast } from '../auth/auth-helpers';
import { expect, expectAccessible, expectSignInPage, guardConsole, screenshots, signInByApi, test } from '../fixtures';

/**
 * A revoked session's open tab goes to sign-in by itself (issue 33 item 1): the Robot Manager holds
 * the live event stream; another browser of the same user signs everywhere else out from the
 * security centre; the server ends the revoked session's stream at once, and the tab, with nothing
 * done in it, lands on the sign-in page without a reload.
 */

/** Marks the document, so a reload (which loses the mark) can be told from a client-side move. */
const markDocument = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
  });
const sameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

test('signing out everywhere else sends the open Robot Manager of the other session to sign-in', async ({
  page,
  browser,
  signedIn: user,
}) => {
  await page.goto('/dashboard');
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-state', 'open');
  await markDocument(page);

  const other = await browser.newContext();
  try {
    const centre = await other.newPage();
    const centreErrors = guardConsole(centre);
    await signInByApi(other, user.email, user.password);
    await centre.goto('/dashboard/user/profile');
    await centre.getByRole('button', { name: 'Sign out everywhere else', exact: true }).click();
    const confirm = centre.getByRole('dialog', { name: 'Sign out everywhere else?' });
    await confirm.getByRole('button', { name: 'Sign out 1 session', exact: true }).click();
    await expectToast(centre, 'Signed Out Everywhere Else', '1 other session is signed out.');

    // Nothing is done in the first tab: its stream ending is what takes it to sign-in.
    await expectSignInPage(page, { target: 'portal', redirect: '/dashboard' });
    expect(await sameDocument(page)).toBe(true);
    await expect(page.getByRole('button', { name: 'Sign in to Portal' })).toBeVisible();
    await expectAccessible(page);
    await screenshots(page, 'security-revoked-tab-signed-out');

    // The browser that signed the others out is still signed in.
    await centre.reload();
    await expect(centre.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
    expect(centreErrors()).toEqual([]);
  } finally {
    await other.close();
  }
});
