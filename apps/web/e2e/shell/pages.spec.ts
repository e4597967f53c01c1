import { currentAddress, expect, expectAccessible, expectSignInPage, screenshots, test } from '../fixtures';
import { expectShell, viewportScreenshots } from './shell-helpers';

/** spec/000 §2: cookie notice, privacy policy, page titles, missing routes, error screens, FAQ, landing. */

const SECTION_TITLES = [
  'Who we are and our contact details',
  'The information we collect',
  'How we get your information and why we have it',
  'How we store your information',
  'Your data protection rights',
  'How to complain',
  'Changes to this policy',
  'Contact us',
];
const RETENTION = 'Retained for 2 years, then anonymised.';

test.describe('cookie notice', () => {
  test('OK on /auth/login hides it, sets the cookie (path /, SameSite Lax), and it stays hidden', async ({ page }) => {
    await page.goto('/auth/login');
    const notice = page.getByRole('region', { name: 'Cookie notice' });
    await expect(notice).toBeVisible();
    await expect(notice.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy-policy');
    await screenshots(page, 'shell-cookie-notice-login');
    expect((await page.context().cookies()).find((c) => c.name === 'cookie_notice_acknowledged')).toBeUndefined();

    await notice.getByRole('button', { name: 'OK' }).click();
    await expect(notice).toBeHidden();
    const cookie = (await page.context().cookies()).find((c) => c.name === 'cookie_notice_acknowledged');
    expect(cookie).toMatchObject({ value: 'true', path: '/', sameSite: 'Lax' });

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();
    await expect(notice).toHaveCount(0);
    // The cookie's path is /, so the landing page's notice is gone as well.
    await page.goto('/landing');
    await expect(page.getByRole('heading', { name: 'Robot Portal', level: 1 })).toBeVisible();
    await expect(notice).toHaveCount(0);
  });
});

test.describe('privacy policy', () => {
  test('signed out: every section, and Back goes to sign-in', async ({ page }) => {
    await page.goto('/privacy-policy');
    await expect(page.getByRole('heading', { name: 'Privacy Policy', level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2 }).filter({ hasNotText: 'On this page' })).toHaveText(
      SECTION_TITLES,
    );
    await expect(page.getByRole('navigation', { name: 'Privacy Policy sections' }).getByRole('link')).toHaveText(
      SECTION_TITLES,
    );
    await expect(page.getByText('We keep your personal data for 2 years and then anonymise it')).toBeVisible();
    // The public page has no shell and no user menu.
    await expect(page.getByRole('button', { name: 'Toggle sidebar' })).toHaveCount(0);
    await expect(page).toHaveTitle('Robot Portal | Privacy Policy');
    await expectAccessible(page);
    await screenshots(page, 'shell-privacy-public');

    await page.getByRole('link', { name: 'Back' }).click();
    await expectSignInPage(page, { target: 'portal' });
  });

  test('the Data Usage Table has 3 columns and 7 rows, each retained 2 years then anonymised', async ({ page }) => {
    await page.goto('/privacy-policy');
    await page.getByRole('button', { name: 'Data Usage Table' }).click();
    const dialog = page.getByRole('dialog', { name: 'Data Usage Table' });
    await expect(dialog).toBeVisible();
    const table = dialog.getByRole('table');
    await expect(table.getByRole('columnheader')).toHaveText(['Purpose', 'Type of data', 'Legal basis and retention']);
    const rows = table.locator('tbody').getByRole('row');
    await expect(rows).toHaveCount(7);
    for (let i = 0; i < 7; i++) {
      await expect(rows.nth(i).getByRole('cell').last(), `row ${i + 1}`).toContainText(RETENTION);
      await expect(rows.nth(i).getByRole('rowheader'), `row ${i + 1}`).not.toBeEmpty();
    }
    await expectAccessible(page);
    await screenshots(page, 'shell-privacy-data-usage');
    await viewportScreenshots(page, 'shell-privacy-data-usage');

    // On a phone the rows are cards, with the same seven retention notes.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(table).toBeHidden();
    const cards = dialog.getByRole('listitem');
    await expect(cards).toHaveCount(7);
    for (let i = 0; i < 7; i++) await expect(cards.nth(i)).toContainText(RETENTION);
    await expectAccessible(page);

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: 'Data Usage Table' })).toBeFocused();
  });

  test('signed in: Back goes to the dashboard; /dashboard/privacy-policy is inside the shell', async ({
    page,
    signedIn: _signedIn,
  }) => {
    await page.goto('/privacy-policy');
    await expect(page.getByRole('heading', { name: 'Privacy Policy', level: 1 })).toBeVisible();
    await page.getByRole('link', { name: 'Back' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    await page.goto('/dashboard/privacy-policy');
    await expectShell(page);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: 'Privacy Policy', level: 1 })).toBeVisible();
    await expect(main.getByRole('heading', { level: 2 }).filter({ hasNotText: 'On this page' })).toHaveText(
      SECTION_TITLES,
    );
    await expect(page).toHaveTitle('Robot Portal | Privacy Policy');
    await expectAccessible(page);
    await screenshots(page, 'shell-privacy-dashboard');

    await main.getByRole('button', { name: 'Data Usage Table' }).click();
    await expect(page.getByRole('dialog', { name: 'Data Usage Table' }).locator('tbody').getByRole('row')).toHaveCount(
      7,
    );
    await expectAccessible(page);
    await page.keyboard.press('Escape');

    await main.getByRole('link', { name: 'Back' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});

test.describe('page titles', () => {
  test('"Robot Portal | <screen>" on the public screens', async ({ page }) => {
    for (const [path, title] of [
      ['/auth/login', 'Robot Portal | Sign in'],
      ['/landing', 'Robot Portal | Welcome'],
      ['/privacy-policy', 'Robot Portal | Privacy Policy'],
      ['/auth/signup', 'Robot Portal | Sign up'],
    ] as const) {
      await page.goto(path);
      await expect(page, path).toHaveTitle(title);
      await expect(page.locator('head > title'), path).toHaveCount(1);
    }
  });

  test('"Robot Portal | <screen>" on the signed-in screens, following client-side navigation', async ({
    page,
    signedIn: _signedIn,
  }) => {
    // A fresh load shows the loading title only while loading.
    await page.goto('/dashboard');
    await expectShell(page);
    await expect(page.getByRole('heading', { name: 'Robot Manager' })).toBeVisible();
    await expect(page).not.toHaveTitle(/Loading/);
    // One <title>: index.html's gives way to the app's (lib/page-title.ts).
    await expect(page.locator('head > title')).toHaveCount(1);
    await page.goto('/dashboard/faq');
    await expect(page).toHaveTitle('Robot Portal | FAQ');
    await page.getByRole('link', { name: 'Get Help' }).click();
    await expect(page).toHaveTitle('Robot Portal | Support');
    await page.goto('/dashboard/user/profile');
    await expect(page).toHaveTitle('Robot Portal | Profile');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'FAQ', exact: true }).click();
    await expect(page).toHaveTitle('Robot Portal | FAQ');
    // The dashboard sets no screen name of its own; it must not keep the previous screen's title.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page).not.toHaveTitle(/FAQ/);
    await expect(page).toHaveTitle(/^Robot Portal/);
    await expect(page.locator('head > title')).toHaveCount(1);
  });
});

test.describe('missing routes and error screens', () => {
  test('signed in, an unknown route goes to the dashboard', async ({ page, signedIn: _signedIn }) => {
    for (const path of ['/nowhere', '/dashboard/nowhere', '/dashboard/user/nowhere/deeper']) {
      await page.goto(path);
      await expect.poll(() => currentAddress(page), path).toEqual({ path: '/dashboard' });
      await expectShell(page);
    }
  });

  test('signed out, an unknown route goes to sign-in', async ({ page }) => {
    await page.goto('/nowhere');
    await expectSignInPage(page, { redirect: '/dashboard', target: 'portal' });
    await page.goto('/dashboard/nowhere');
    await expectSignInPage(page, { redirect: '/dashboard/nowhere', target: 'portal' });
    await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();
  });
});

test.describe('FAQ and landing', () => {
  test('the FAQ renders inside the shell and its answers open', async ({ page, signedIn: _signedIn }) => {
    await page.goto('/dashboard/faq');
    await expectShell(page);
    await expect(page.getByRole('heading', { name: 'Frequently asked questions', level: 1 })).toBeVisible();
    const first = page.getByRole('button', { name: 'How do I add a new robot?' });
    await expect(first).toHaveAttribute('aria-expanded', 'false');
    await first.click();
    await expect(first).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByText('Open Add Robots, find your robot’s make and model')).toBeVisible();
    await expectAccessible(page);
    await screenshots(page, 'shell-faq');
    await page.getByRole('link', { name: 'Get Help' }).click();
    await expect(page).toHaveURL(/\/dashboard\/support$/);
  });

  test('/landing renders, signed out, with its Sign in button and cookie notice', async ({ page }) => {
    await page.goto('/landing');
    await expect(page.getByRole('heading', { name: 'Robot Portal', level: 1 })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Cookie notice' })).toBeVisible();
    await expect(
      page.getByRole('navigation', { name: 'Legal' }).getByRole('link', { name: 'Privacy Policy' }),
    ).toBeVisible();
    await expectAccessible(page);
    await screenshots(page, 'shell-landing');
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).click();
    await expectSignInPage(page, { target: 'portal' });
  });

  test('the dashboard shell is accessible at both widths', async ({ page, signedIn: _signedIn }) => {
    await page.goto('/dashboard');
    await expectShell(page);
    await expect(page.getByRole('button', { name: 'Show onboarding guide' })).toBeVisible();
    await expectAccessible(page);
    await screenshots(page, 'shell-dashboard');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page);
  });
});
