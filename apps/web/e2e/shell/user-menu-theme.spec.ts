import { expect, expectAccessible, screenshots, test } from '../fixtures';
import { expectShell, htmlHasDark, openUserMenu, userMenuTrigger } from './shell-helpers';

/** spec/000 §2 User menu, §4 Onboarding and theme (light, dark, system; landing forced light). */

const filterOf = (el: Element) => getComputedStyle(el).filter;

test.describe('user menu', () => {
  test.use({ accountName: 'Grace Brewster Hopper' });

  test('shows initials, a blurred email until hovered, and every entry', async ({ page, signedIn: user }) => {
    await page.goto('/dashboard');
    await expectShell(page);
    await page.mouse.move(640, 700);

    const trigger = userMenuTrigger(page);
    await expect(trigger).toContainText('Grace Brewster Hopper');
    // The avatar service cannot be reached here: the initials (first and last word) show instead.
    await expect(trigger.locator('[data-slot="avatar-fallback"]')).toHaveText('GH');
    await expect(trigger.locator('[data-slot="avatar-image"]')).toHaveCount(0);

    const email = trigger.getByText(user.email, { exact: true });
    await expect.poll(() => email.evaluate(filterOf)).toBe('blur(3px)');
    await trigger.hover();
    await expect.poll(() => email.evaluate(filterOf)).toBe('none');
    await page.mouse.move(640, 700);
    await expect.poll(() => email.evaluate(filterOf)).toBe('blur(3px)');

    const menu = await openUserMenu(page);
    // In the menu too: blurred until the pointer is on it.
    const menuEmail = menu.getByText(user.email, { exact: true });
    await expect.poll(() => menuEmail.evaluate(filterOf)).toBe('blur(3px)');
    await menuEmail.hover();
    await expect.poll(() => menuEmail.evaluate(filterOf)).toBe('none');
    await expect(menu.locator('[data-slot="avatar-fallback"]')).toHaveText('GH');

    await expect(menu.getByRole('menuitem')).toHaveText(['Profile', 'Privacy Policy', /^Get Support/, 'Log out']);
    await expect(menu.getByRole('menuitemradio')).toHaveText(['Light', 'Dark', 'System']);
    // A new user follows the system.
    await expect(menu.getByRole('menuitemradio', { name: 'System' })).toHaveAttribute('aria-checked', 'true');
    const support = menu.getByRole('menuitem', { name: /^Get Support/ });
    await expect(support).toHaveAttribute('target', '_blank');
    await expect(support).toHaveAttribute('href', /^https:\/\//);
    await expectAccessible(page);
    await screenshots(page, 'shell-user-menu');

    await menu.getByRole('menuitem', { name: 'Profile' }).click();
    await expect(page).toHaveURL(/\/dashboard\/user\/profile$/);
    await (await openUserMenu(page)).getByRole('menuitem', { name: 'Privacy Policy' }).click();
    await expect(page).toHaveURL(/\/dashboard\/privacy-policy$/);
    await expect(page.getByRole('heading', { name: 'Privacy Policy', level: 1 })).toBeVisible();
  });

  test.describe('with a one-word name', () => {
    test.use({ accountName: 'Plato' });

    test('a one-word name gives a single initial', async ({ page, signedIn: _signedIn }) => {
      await page.goto('/dashboard');
      await expect(userMenuTrigger(page).locator('[data-slot="avatar-fallback"]')).toHaveText('P');
    });
  });

  // Signed out there is no user menu anywhere: the shell (and so the menu with its Sign in button)
  // is only rendered inside the signed-in area; the public pages (/privacy-policy, /landing, /auth/*)
  // have their own frames. The landing page's own Sign in button is checked in pages.spec.ts.
});

test.describe('theme', () => {
  test('Dark adds the dark class and survives a reload; Light removes it', async ({ page, signedIn: _signedIn }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/dashboard');
    await expectShell(page);
    expect(await htmlHasDark(page)).toBe(false);

    await (await openUserMenu(page)).getByRole('menuitemradio', { name: 'Dark' }).click();
    await expect.poll(() => htmlHasDark(page)).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    await page.reload();
    await expectShell(page);
    expect(await htmlHasDark(page)).toBe(true);
    await expect((await openUserMenu(page)).getByRole('menuitemradio', { name: 'Dark' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await screenshots(page, 'shell-dashboard-dark');

    await (await openUserMenu(page)).getByRole('menuitemradio', { name: 'Light' }).click();
    await expect.poll(() => htmlHasDark(page)).toBe(false);
    // Light ignores a dark system.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await expectShell(page);
    expect(await htmlHasDark(page)).toBe(false);
  });

  test('System follows the emulated prefers-color-scheme, live and on load', async ({ page, signedIn: _signedIn }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/dashboard');
    await expectShell(page);
    // Never chosen means System.
    expect(await htmlHasDark(page)).toBe(true);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => htmlHasDark(page)).toBe(false);

    await (await openUserMenu(page)).getByRole('menuitemradio', { name: 'Dark' }).click();
    await expect.poll(() => htmlHasDark(page)).toBe(true);
    await (await openUserMenu(page)).getByRole('menuitemradio', { name: 'System' }).click();
    await expect.poll(() => htmlHasDark(page)).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('system');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => htmlHasDark(page)).toBe(true);
    await page.reload();
    await expectShell(page);
    expect(await htmlHasDark(page)).toBe(true);
  });

  test('/landing stays light with Dark chosen, and the choice holds again after it', async ({
    page,
    signedIn: _signedIn,
  }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/dashboard');
    await expectShell(page);
    await (await openUserMenu(page)).getByRole('menuitemradio', { name: 'Dark' }).click();
    await expect.poll(() => htmlHasDark(page)).toBe(true);

    await page.goto('/landing');
    await expect(page.getByRole('heading', { name: 'Robot Portal', level: 1 })).toBeVisible();
    expect(await htmlHasDark(page)).toBe(false);

    // Leaving the landing page through its links gives the chosen theme back (signed in, Sign in leads to the dashboard).
    await page.getByRole('main').getByRole('link', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect.poll(() => htmlHasDark(page)).toBe(true);
  });
});
