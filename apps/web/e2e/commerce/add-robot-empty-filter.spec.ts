import { expect, expectAccessible, screenshots, test } from '../fixtures';
import { openAddRobot } from './commerce-helpers';

/** spec/001 §2 Add Robot, issue 32 item 6: a filter that matches no model says so and can be cleared. */

for (const theme of ['light', 'dark'] as const) {
  test(`"No robot models match 'zzz'" with Clear filter, the not-listed card kept (${theme})`, async ({
    page,
    signedIn: _signedIn,
  }) => {
    await page.addInitScript((t) => localStorage.setItem('theme', t), theme);
    await openAddRobot(page);
    await page.getByRole('searchbox', { name: 'Filter by Model' }).fill('zzz');
    await expect(page.getByRole('status').filter({ hasText: "No robot models match 'zzz'" })).toBeVisible();
    await expect(page.getByText('Is your Robot not in the list?')).toBeVisible();
    await expectAccessible(page);
    await screenshots(page, `commerce-add-robot-no-match-${theme}`);

    await page.getByRole('button', { name: 'Clear filter' }).click();
    await expect(page.getByRole('searchbox', { name: 'Filter by Model' })).toHaveValue('');
    await expect(page.getByText(/No robot models match/)).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Add Nao driver to cart/ })).toBeVisible();
  });
}
