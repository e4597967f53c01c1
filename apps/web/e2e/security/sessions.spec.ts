import type { Page } from '@playwright/test';
import { expectToast, skipOnboarding } from '../auth/auth-helpers';
import {
  expect,
  expectAccessible,
  expectSignInPage,
  guardConsole,
  readMail,
  screenshots,
  signInThroughForm,
  test,
} from '../fixtures';

/**
 * Where you are signed in (issue 15 part 3): two browsers signed in as one user; one signs the other
 * out, and the other's next action lands on the sign-in page, without a reload.
 */

const sessions = (page: Page) => page.getByRole('list', { name: 'Sessions' });
/** What the server makes of the user agent of Playwright's "Desktop Chrome" device (playwright.config.ts). */
const BROWSER = 'Chrome on Windows';

/** Marks the document, so a reload (which loses the mark) can be told from a client-side move. */
const markDocument = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
  });
const sameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

/** The other browser's next action: saving the profile, which needs its session. */
async function saveProfile(page: Page) {
  await page.getByLabel('Organisation', { exact: true }).fill('Signed Out Robotics');
  await page.getByRole('button', { name: 'Save changes', exact: true }).click();
}

test('one browser signs the other out, one session and then everywhere else', async ({
  page,
  browser,
  signedIn: user,
}) => {
  // Two browsers, two sign-ins through the form, both themes: over a minute on a busy machine.
  test.slow();
  const other = await browser.newContext();
  try {
    const tab = await other.newPage();
    const tabErrors = guardConsole(tab);
    await skipOnboarding(tab);
    await signInThroughForm(tab, user.email, user.password, '/auth/login?redirect=/dashboard/user/profile');
    await expect(tab.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
    expect(await readMail(user.email, { subject: /New sign-in to your/ })).toContain(`: ${BROWSER}, from the address`);

    await page.goto('/dashboard/user/profile');
    const otherRow = sessions(page).getByRole('listitem').filter({ hasText: BROWSER });
    await expect(sessions(page).getByRole('listitem')).toHaveCount(2);
    await expect(sessions(page).getByRole('listitem').filter({ hasText: 'This browser' })).toContainText('Node.js');
    await expectAccessible(page);
    await screenshots(page, 'security-sessions');
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.reload();
    await expect(page.locator('html')).toHaveClass(/dark/);
    await expect(otherRow).toBeVisible();
    await expectAccessible(page);
    await screenshots(page, 'security-sessions-dark');

    // One session.
    await markDocument(tab);
    await otherRow.getByRole('button', { name: new RegExp(`^Sign out ${BROWSER}, last active`) }).click();
    await expectToast(page, 'Session Signed Out');
    await expect(sessions(page).getByRole('listitem')).toHaveCount(1);
    await saveProfile(tab);
    await expectSignInPage(tab, { target: 'portal', redirect: '/dashboard/user/profile' });
    expect(await sameDocument(tab)).toBe(true);

    // Everywhere else, after a confirmation.
    await signInThroughForm(tab, user.email, user.password, '/auth/login?redirect=/dashboard/user/profile');
    await expect(tab.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
    await markDocument(tab);
    await page.reload();
    await expect(sessions(page).getByRole('listitem')).toHaveCount(2);
    await page.getByRole('button', { name: 'Sign out everywhere else', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Sign out everywhere else?' });
    await expect(confirm).toContainText('This browser stays signed in.');
    await expectAccessible(page);
    await screenshots(page, 'security-sign-out-everywhere-dialog');
    await confirm.getByRole('button', { name: 'Sign out 1 session', exact: true }).click();
    await expectToast(page, 'Signed Out Everywhere Else', '1 other session is signed out.');
    await expect(sessions(page).getByRole('listitem')).toHaveCount(1);
    await expect(page.getByText('You are not signed in anywhere else.')).toBeVisible();
    await saveProfile(tab);
    await expectSignInPage(tab, { target: 'portal', redirect: '/dashboard/user/profile' });
    expect(await sameDocument(tab)).toBe(true);
    // This browser is still signed in.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
    expect(tabErrors()).toEqual([]);
  } finally {
    await other.close();
  }
});
