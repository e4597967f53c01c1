import type { Page, Route } from '@playwright/test';
import { expect, expectAccessible, screenshots, test } from '../fixtures';
import { expectToast, skipOnboarding } from './auth-helpers';

/**
 * docs/decisions/038: the sign-in page's first view is in its HTML (prerendered at build time) and
 * the app hydrates it. Its scripts are held back here to look at the page as the browser first
 * draws it, then let through: the page must already be the sign-in page, in the right theme, and
 * hidden from a visitor with a stored session; the app then takes it over without a console error
 * (the fixture's guard); until then the page is inert, so nothing pressed or typed is lost.
 */

/** Holds the app's scripts until `release()`: the page is as the HTML alone draws it. */
async function holdScripts(page: Page) {
  const held: Route[] = [];
  let released = false;
  await page.route('**/assets/*.js', (route) => (released ? route.continue() : void held.push(route)));
  return {
    release: async () => {
      released = true;
      await Promise.all(held.map((route) => route.continue()));
    },
  };
}

const heading = (page: Page) => page.getByRole('heading', { name: 'Sign in', exact: true });

/**
 * The stylesheets have loaded. The browser paints nothing before them, but a layout read by a test
 * (a bounding box) would be of the unstyled page: in CI it once measured the body's default margin.
 */
const styled = (page: Page) =>
  page.waitForFunction(() =>
    Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')).every(
      (link) => link.sheet !== null,
    ),
  );
const noticeText = /We use a few essential cookies/;

test('the HTML is the sign-in page, with the cookie notice until it is acknowledged', async ({ page, baseURL }) => {
  for (const path of ['/auth/login', '/auth/login?target=portal']) {
    const html = await (await page.request.get(path)).text();
    expect(html).toContain('<div id="app" data-prerendered inert>');
    expect(html).toContain('<title>Robot Portal | Sign in</title>');
    expect(html).toContain('Sign in to Portal');
    expect(html).toMatch(noticeText);
  }
  await page.context().addCookies([{ name: 'cookie_notice_acknowledged', value: 'true', url: baseURL as string }]);
  const acknowledged = await (await page.request.get('/auth/login')).text();
  expect(acknowledged).toContain('Sign in to Portal');
  expect(acknowledged).not.toMatch(noticeText);
  // Another first view (the hub's wording) is drawn by the app, not prerendered: the HTML holds the
  // loading indicator every page of the app starts with.
  const hub = await (await page.request.get('/auth/login?target=hub')).text();
  expect(hub).not.toContain('<div id="app" data-prerendered');
  expect(hub).toMatch(/<div id="app"><div [^>]*role="status"[^>]*>[\s\S]*Loading\.\.\./);
});

test('drawn from the HTML before any script, inert until hydrated, then it signs in', async ({ page, account }) => {
  await skipOnboarding(page);
  const scripts = await holdScripts(page);
  await page.goto('/auth/login', { waitUntil: 'commit' });
  await expect(heading(page)).toBeVisible();
  await expect(page.getByText(noticeText)).toBeVisible();
  // Not live yet: nothing pressed or typed can be lost.
  await expect(page.locator('#app')).toHaveAttribute('inert');
  await expect(page.getByLabel('Email', { exact: true })).not.toBeFocused();

  await scripts.release();
  // Hydrated: the route's address rewrite ran, the page takes input and the email field has the focus.
  await expect(page).toHaveURL(/\/auth\/login\?target=portal$/);
  await expect(page.locator('#app')).not.toHaveAttribute('inert');
  await expect(page.locator('#app')).not.toHaveAttribute('data-prerendered');
  await expect(page.getByLabel('Email', { exact: true })).toBeFocused();
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in to Portal' }).click();
  await expectToast(page, 'Login Successful', 'Welcome back!');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('dark theme from the first paint, and the page looks as the app draws it', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
  const scripts = await holdScripts(page);
  await page.goto('/auth/login', { waitUntil: 'commit' });
  await expect(heading(page)).toBeVisible();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await styled(page);
  const before = await page.locator('main').boundingBox();
  await scripts.release();
  await expect(page.locator('#app')).not.toHaveAttribute('data-prerendered');
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  // Nothing moved when the app took the page over.
  expect(await page.locator('main').boundingBox()).toEqual(before);
  await expectAccessible(page);
  await screenshots(page, 'sign-in-prerendered-dark');
});

test('a signed-in visitor never sees the prerendered form, and goes to the dashboard', async ({ page, signedIn }) => {
  void signedIn;
  const scripts = await holdScripts(page);
  await page.goto('/auth/login', { waitUntil: 'commit' });
  // In the HTML, but hidden until the app decides.
  const prerendered = page.locator('#app h1').filter({ hasText: /^Sign in$/ });
  await expect(prerendered).toHaveCount(1);
  await expect(prerendered).toBeHidden();
  await scripts.release();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(prerendered).toHaveCount(0);
});
