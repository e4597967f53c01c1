import { license } from '@portal/contract';
import { expect, expectAccessible, loginByApi, screenshots, signInByApi, test } from '../fixtures';
import { DEMO, grid } from './robots-helpers';

/**
 * The Robot Manager on the seeded demo account (issue 4 item 9): a paired Active robot, an unpaired
 * license with its pairing code, a flexible license on an Inactive robot, and a colleague's shared
 * robot. These tests only read the demo account, so they can run beside anything else.
 */

test.beforeEach(async ({ page }) => {
  await signInByApi(page, DEMO.email, DEMO.password);
});

test('every card kind: paired, unpaired with its code, flexible, shared', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Robot Manager' })).toBeVisible();
  await expect(page.locator('h1')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Show onboarding guide' })).toBeVisible();

  const mine = grid(page, 'MY ROBOTS');
  // Two paired, two unpaired (a Tiago Steel just bought, a Tiago++ cancelled at the end of its
  // period and so still working); the demo's expired and lapsed licenses are not listed.
  await expect(mine.getByRole('heading', { level: 2 })).toHaveText('MY ROBOTS (4)');
  await expect(mine.getByTestId('robot-card').filter({ hasText: 'Pairing Code' })).toHaveCount(2);

  // An unpaired license shows its pairing code instead of a name, inside a dashed border.
  const unpaired = mine.getByTestId('robot-card').filter({ hasText: 'Pairing Code' }).filter({ hasText: 'Steel' });
  await expect(unpaired).toHaveCount(1);
  await expect(unpaired.getByTestId('pair-code')).toHaveText(/^[A-Z0-9]{6,16}$/);
  await expect(unpaired).toHaveCSS('border-top-style', 'dashed');
  // Tiago_Steel shows as Tiago with the version badge Steel; unpaired cards are not links.
  await expect(unpaired.getByRole('heading', { level: 3 })).toHaveText(/^Tiago\s*Steel$/);
  await expect(unpaired.locator('xpath=ancestor-or-self::a')).toHaveCount(0);

  // Paired robots are links to their manager page, with their name and status.
  const pepper = mine.getByRole('link').filter({ hasText: 'Reception Pepper' });
  await expect(pepper).toContainText('Active');
  await expect(pepper).toHaveCSS('border-top-style', 'solid');
  await expect(pepper.getByRole('img')).toHaveAttribute('src', '/images/robots/pepper.svg');
  const nao = mine.getByRole('link').filter({ hasText: 'Lab Nao' });
  await expect(nao).toContainText('Inactive');
  await expect(nao.getByText('Flex', { exact: true })).toBeVisible();

  // The shared robot is visible but cannot be opened.
  const shared = grid(page, 'SHARED ROBOTS');
  await expect(shared.getByRole('heading', { level: 2 })).toHaveText('SHARED ROBOTS (1)');
  const sharedCard = shared.getByTestId('robot-card');
  await expect(sharedCard).toContainText('Warehouse Tiago');
  await expect(shared.getByRole('link')).toHaveCount(0);
  await sharedCard.click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Each name is fitted to its card (spec/001 §2: 36 px, shrinking to 12 px), again when the window
  // narrows (the cards' names are fitted together, decision 044).
  const start = page.viewportSize();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const name of ['Reception Pepper', 'Lab Nao', 'Warehouse Tiago']) {
      const text = page.locator(`p[title="${name}"]`);
      await expect.poll(() => text.evaluate((p) => p.scrollWidth <= p.clientWidth)).toBe(true);
      const px = await text.evaluate((p) => Number.parseFloat(getComputedStyle(p).fontSize));
      expect(px).toBeGreaterThanOrEqual(12);
      expect(px).toBeLessThanOrEqual(36);
    }
  }
  if (start) await page.setViewportSize(start);

  await expectAccessible(page);
  await screenshots(page, 'robots-manager-demo');
});

test('filters All, Paired and Unpaired are toggle buttons kept in the address', async ({ page }) => {
  await page.goto('/dashboard');
  const mine = grid(page, 'MY ROBOTS');
  const filter = (name: string) => page.getByRole('button', { name, exact: true });
  await expect(filter('All')).toHaveAttribute('aria-pressed', 'true');

  await filter('Paired').click();
  await expect(page).toHaveURL(/[?&]filter=paired\b/);
  await expect(filter('Paired')).toHaveAttribute('aria-pressed', 'true');
  await expect(filter('All')).toHaveAttribute('aria-pressed', 'false');
  await expect(mine.getByRole('heading', { level: 2 })).toHaveText('MY ROBOTS (2)');
  await expect(mine.getByText('Pairing Code')).toHaveCount(0);

  await filter('Unpaired').click();
  await expect(page).toHaveURL(/[?&]filter=unpaired\b/);
  await expect(mine.getByRole('heading', { level: 2 })).toHaveText('MY ROBOTS (2)');
  await expect(mine.getByTestId('robot-card').filter({ hasText: 'Pairing Code' })).toHaveCount(2);
  await expect(grid(page, 'SHARED ROBOTS').getByTestId('robot-card')).toHaveCount(0);

  // The filter survives a reload; a bad value falls back to All.
  await page.reload();
  await expect(filter('Unpaired')).toHaveAttribute('aria-pressed', 'true');
  await page.goto('/dashboard?filter=everything');
  await expect(filter('All')).toHaveAttribute('aria-pressed', 'true');
  await expect(mine.getByRole('heading', { level: 2 })).toHaveText('MY ROBOTS (4)');
});

test('the dial time panel is open at 1280 px and closed at 390 px', async ({ page }) => {
  await page.goto('/dashboard');
  const panel = page.getByTestId('dial-time-panel');
  await expect(panel).toBeVisible();
  // The demo account is Standard: numbers and one pie per pool, no upgrade prompt.
  for (const pool of ['Durable', 'Perishable'])
    await expect(panel.getByRole('img', { name: new RegExp(`^${pool} time: [<>]?\\d+% remaining$`) })).toBeVisible();
  await expect(panel.getByTestId('remaining-minutes')).toHaveText(/^[\d,]+ minutes?$/);
  await expect(panel.getByText('Upgrade to Pro')).toHaveCount(0);
  await page.getByRole('button', { name: 'Hide Dial Time' }).click();
  await expect(panel).toBeHidden();
  await expect(page.getByRole('button', { name: 'View Dial Time' })).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByRole('button', { name: 'View Dial Time' })).toBeVisible();
  await expect(page.getByTestId('dial-time-panel')).toBeHidden();
  await page.getByRole('button', { name: 'View Dial Time' }).click();
  await expect(page.getByTestId('dial-time-panel')).toBeVisible();
});

test('a paired card opens its manager page from the keyboard', async ({ page }) => {
  await page.goto('/dashboard');
  const pepper = grid(page, 'MY ROBOTS').getByRole('link').filter({ hasText: 'Reception Pepper' });
  await pepper.focus();
  await expect(pepper).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard\/robot\/manager\/[^/]+$/);

  await expect(page.getByRole('heading', { level: 1, name: 'Reception Pepper' })).toBeVisible();
  await expect(page.locator('h1')).toHaveCount(1);
  await expect(page.getByText(/^Hello \S+, here is everything about this robot\.$/)).toBeVisible();
  const details = page.getByRole('heading', { name: 'Robot', exact: true }).locator('xpath=../..');
  await expect(details.getByText(/^\d{2}\/\d{2}\/\d{4}$/)).toBeVisible();
  await expect(page.getByText('Paired', { exact: true })).toBeVisible();
  await expect(page.getByText('Active', { exact: true })).toBeVisible();
  // The license's remaining days (the Share section's periods are options, not definitions).
  await expect(page.getByRole('definition').filter({ hasText: /^\d+ days?$/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Unpair robot' })).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, 'robots-manage-demo');

  await page.getByRole('link', { name: 'Back to Robot Manager' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('the shared robot cannot be managed, and an unknown id says so', async ({ page }) => {
  const { api } = await loginByApi(DEMO.email, DEMO.password);
  const { user_licenses } = await api.call(license, 'GetLicences', { email: DEMO.email });
  const sharedId = user_licenses?.shared_robot_licenses[0]?.robot_id ?? '';
  expect(sharedId).toBeTruthy();

  await page.goto(`/dashboard/robot/manager/${encodeURIComponent(sharedId)}`);
  await expect(page.getByRole('heading', { name: 'This robot is shared with you' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Unpair robot' })).toHaveCount(0);

  await page.goto('/dashboard/robot/manager/not-a-robot');
  await expect(page.getByRole('heading', { name: 'Robot not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to Robot Manager' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('the demo dashboard in the dark theme', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
  await page.goto('/dashboard');
  await expect(grid(page, 'MY ROBOTS')).toBeVisible();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expectAccessible(page);
  await screenshots(page, 'robots-manager-demo-dark');
});
