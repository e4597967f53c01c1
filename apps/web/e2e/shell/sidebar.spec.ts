import { ONE_DAY_S } from '@portal/contract';
import { expect, expectAccessible, screenshots, test } from '../fixtures';
import { desktopSidebar, expectShell, phoneScreenshot, tourDialog } from './shell-helpers';

/** spec/000 §2 Sidebar (menu, Ctrl/Cmd+B, cookie, widths, mobile sheet, logo, breadcrumb), §9. */

async function sidebarCookie(page: import('@playwright/test').Page) {
  return (await page.context().cookies()).find((c) => c.name === 'sidebar_state');
}

async function asideWidth(page: import('@playwright/test').Page): Promise<number> {
  return page.locator('aside#app-sidebar').evaluate((el) => el.getBoundingClientRect().width);
}

test.describe('sidebar', () => {
  test('lists every menu item of the spec', async ({ page, signedIn: _signedIn }) => {
    await page.goto('/dashboard');
    await expectShell(page);
    const nav = page.getByRole('navigation', { name: 'Main' });

    await expect(nav.getByText('Platform', { exact: true })).toBeVisible();
    await expect(nav.getByText('Useful Links', { exact: true })).toBeVisible();
    const links: [string, string][] = [
      ['Dashboard', '/dashboard'],
      ['Downloads', '/dashboard/downloads'],
      ['Add Robots', '/dashboard/robot/add'],
      ['Subscription Dashboard', '/dashboard/subscriptions/manage'],
      ['Flexible Licenses', '/dashboard/subscriptions/flexible_licenses'],
      ['FAQ', '/dashboard/faq'],
    ];
    for (const [name, href] of links)
      await expect(nav.getByRole('link', { name, exact: true }), name).toHaveAttribute('href', href);
    // The current page is marked.
    await expect(nav.getByRole('link', { name: 'Dashboard', exact: true })).toHaveAttribute('aria-current', 'page');

    // Subscriptions is a group that starts open and folds.
    const subscriptions = nav.getByRole('button', { name: 'Subscriptions', exact: true });
    await expect(subscriptions).toHaveAttribute('aria-expanded', 'true');
    await subscriptions.click();
    await expect(subscriptions).toHaveAttribute('aria-expanded', 'false');
    await expect(nav.getByRole('link', { name: 'Flexible Licenses' })).toBeHidden();
    await subscriptions.click();
    await expect(nav.getByRole('link', { name: 'Flexible Licenses' })).toBeVisible();

    await expect(nav.getByRole('button', { name: 'Onboarding Tour', exact: true })).toBeVisible();
    for (const name of ['Docs', 'Tutorials']) {
      const link = nav.getByRole('link', { name: `${name} (opens in a new tab)`, exact: true });
      await expect(link, name).toHaveAttribute('target', '_blank');
      await expect(link, name).toHaveAttribute('href', /^https:\/\//);
    }

    // Following a link: FAQ opens and becomes the current page.
    await nav.getByRole('link', { name: 'FAQ', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard\/faq$/);
    await expect(nav.getByRole('link', { name: 'FAQ', exact: true })).toHaveAttribute('aria-current', 'page');
  });

  test('Ctrl+B and Meta+B collapse it to icons and back', async ({ page, signedIn: _signedIn }) => {
    await page.goto('/dashboard');
    await expectShell(page);
    const sidebar = desktopSidebar(page);
    const trigger = page.getByRole('button', { name: 'Toggle sidebar' });

    await expect(sidebar).toHaveAttribute('data-state', 'expanded');
    await expect(trigger).toHaveAttribute('aria-expanded', 'true');
    await expect.poll(() => asideWidth(page)).toBe(256); // 16rem

    await page.keyboard.press('Control+b');
    await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    await expect(sidebar).toHaveAttribute('data-collapsible', 'icon');
    await expect(trigger).toHaveAttribute('aria-expanded', 'false');
    await expect.poll(() => asideWidth(page)).toBe(48); // 3rem
    // Only icons: the product name and the group labels are gone from view.
    await expect(
      page.getByRole('link', { name: 'Robot Portal, go to dashboard' }).getByText('Robot Portal'),
    ).toBeHidden();
    await expectAccessible(page);
    await screenshots(page, 'shell-sidebar-collapsed');

    // With icons only, a group's children move into a menu beside its icon.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Subscriptions' }).click();
    const groupMenu = page.getByRole('menu');
    await expect(groupMenu.getByRole('menuitem', { name: 'Subscription Dashboard' })).toBeVisible();
    await expect(groupMenu.getByRole('menuitem', { name: 'Flexible Licenses' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(groupMenu).toBeHidden();

    await page.keyboard.press('Meta+b');
    await expect(sidebar).toHaveAttribute('data-state', 'expanded');
    await expect.poll(() => asideWidth(page)).toBe(256);
    await page.keyboard.press('Meta+b');
    await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    await page.keyboard.press('Control+b');
    await expect(sidebar).toHaveAttribute('data-state', 'expanded');
    // Alt or Shift variants stay free.
    await page.keyboard.press('Control+Shift+b');
    await expect(sidebar).toHaveAttribute('data-state', 'expanded');
  });

  test('its state survives a reload in the sidebar_state cookie for 7 days', async ({ page, signedIn: _signedIn }) => {
    await page.goto('/dashboard');
    await expectShell(page);
    const sidebar = desktopSidebar(page);
    expect(await sidebarCookie(page)).toBeUndefined();

    await page.keyboard.press('Control+b');
    await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    const cookie = await sidebarCookie(page);
    expect(cookie).toMatchObject({ value: 'false', path: '/', sameSite: 'Lax' });
    const aheadS = (cookie?.expires ?? 0) - Date.now() / 1000;
    expect(Math.abs(aheadS - 7 * ONE_DAY_S)).toBeLessThan(120);

    await page.reload();
    await expectShell(page);
    await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    await page.goto('/dashboard/faq');
    await expect(sidebar).toHaveAttribute('data-state', 'collapsed');

    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await expect(sidebar).toHaveAttribute('data-state', 'expanded');
    expect(await sidebarCookie(page)).toMatchObject({ value: 'true' });
    await page.reload();
    await expectShell(page);
    await expect(sidebar).toHaveAttribute('data-state', 'expanded');
  });

  test('at 390 px it is a sheet: the trigger opens it, Escape closes it, navigating closes it', async ({
    page,
    signedIn: _signedIn,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/dashboard');
    await expectShell(page);
    const sheet = page.getByRole('dialog', { name: 'Navigation' });
    await expect(sheet).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);

    const trigger = page.getByRole('button', { name: 'Toggle sidebar' });
    await trigger.click();
    await expect(sheet).toBeVisible();
    // The page behind the modal sheet is hidden from assistive tech, so the trigger is found by its slot here.
    await expect(page.locator('[data-slot="sidebar-trigger"]')).toHaveAttribute('aria-expanded', 'true');
    await expect.poll(() => sheet.evaluate((el) => el.getBoundingClientRect().width)).toBe(288); // 18rem
    await expect(sheet.getByRole('link', { name: 'Downloads', exact: true })).toBeVisible();
    await expectAccessible(page);
    await phoneScreenshot(page, 'shell-mobile-sheet');

    await page.keyboard.press('Escape');
    await expect(sheet).toBeHidden();
    await expect(trigger).toBeFocused();

    // Ctrl+B opens it too on a phone-sized window (a hardware keyboard on a tablet).
    await page.keyboard.press('Control+b');
    await expect(sheet).toBeVisible();
    await sheet.getByRole('link', { name: 'FAQ', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard\/faq$/);
    await expect(sheet).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Frequently asked questions' })).toBeVisible();

    // The logo in the sheet navigates and closes it as well.
    await trigger.click();
    await expect(sheet).toBeVisible();
    await sheet.getByRole('link', { name: 'Robot Portal, go to dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(sheet).toBeHidden();

    // The tour entry closes the sheet and hands focus to the tour.
    await trigger.click();
    await expect(sheet).toBeVisible();
    await sheet.getByRole('button', { name: 'Onboarding Tour' }).click();
    // Gone from the page, so its closing (which hands focus back to its trigger) is over.
    await expect(sheet).toHaveCount(0);
    const tour = tourDialog(page);
    await expect(tour).toBeVisible();
    await expect(tour.getByRole('button', { name: 'Next' })).toBeFocused();

    // The desktop collapse state is not touched by the phone sheet.
    expect((await page.context().cookies()).find((c) => c.name === 'sidebar_state')).toBeUndefined();
  });
});

test.describe('logo', () => {
  test('one click goes to the dashboard after a short delay', async ({ page, signedIn: _signedIn }) => {
    await page.goto('/dashboard/faq');
    await expectShell(page);
    const logo = page.getByRole('link', { name: 'Robot Portal, go to dashboard' });
    await expect(logo).toHaveAttribute('href', '/dashboard');
    await logo.click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Frequently asked questions' })).toHaveCount(0);
  });

  test('three quick clicks spin it instead of navigating', async ({ page, signedIn: _signedIn }) => {
    await page.goto('/dashboard/faq');
    await expectShell(page);
    const logo = page.getByRole('link', { name: 'Robot Portal, go to dashboard' });
    const img = logo.locator('img');
    await expect(img).not.toHaveAttribute('data-spinning');

    await logo.click({ clickCount: 3 });
    await expect(img).toHaveAttribute('data-spinning', 'true');
    await expect(img).toHaveClass(/animate-spin/);
    // The spin ends by itself, and the clicks never navigated (the single-click delay and the spin's
    // length are unit tests of the logo).
    await expect(img).not.toHaveAttribute('data-spinning');
    await expect(img).not.toHaveClass(/animate-spin/);
    await expect(page).toHaveURL(/\/dashboard\/faq$/);
  });
});

test.describe('breadcrumb', () => {
  test('shows the path segments, capitalised, with underscores as spaces', async ({ page, signedIn: _signedIn }) => {
    await page.goto('/dashboard/user/profile');
    await expectShell(page);
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect(crumbs.getByRole('listitem')).toHaveText(['Dashboard', 'User', 'Profile']);
    await expect(crumbs.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    // /dashboard/user has no page of its own, so it is text, not a link.
    await expect(crumbs.getByRole('link', { name: 'User' })).toHaveCount(0);
    await expect(crumbs.locator('[aria-current="page"]')).toHaveText('Profile');

    // A robot id with underscores (a real route; this user has no such robot).
    await page.goto('/dashboard/robot/manager/my_spare_robot');
    await expect(crumbs.getByRole('listitem')).toHaveText(['Dashboard', 'Robot', 'Manager', 'My Spare Robot']);

    await crumbs.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(crumbs.getByRole('listitem')).toHaveText(['Dashboard']);
  });

  test('at 390 px the middle segments fold into a menu', async ({ page, signedIn: _signedIn }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/dashboard/robot/manager/my_spare_robot');
    await expectShell(page);
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect(crumbs.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(crumbs.getByText('Robot', { exact: true })).toBeHidden();
    await expect(crumbs.getByText('Manager', { exact: true })).toBeHidden();
    await expect(crumbs.locator('[aria-current="page"]')).toHaveText('My Spare Robot');

    await crumbs.getByRole('button', { name: 'Show 2 more levels' }).click();
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem')).toHaveText(['Robot', 'Manager']);
    await expectAccessible(page);
    await phoneScreenshot(page, 'shell-breadcrumb-menu');
    await page.keyboard.press('Escape');

    await page.goto('/dashboard/user/profile');
    await crumbs.getByRole('button', { name: 'Show 1 more level' }).click();
    await expect(page.getByRole('menu').getByRole('menuitem')).toHaveText(['User']);
  });
});
