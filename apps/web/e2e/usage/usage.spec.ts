import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { robots, time } from '@portal/contract';
import {
  type ApiSession,
  createVerifiedUser,
  expect,
  expectAccessible,
  loginByApi,
  PASSWORD,
  screenshots,
  test,
} from '../fixtures';
import { cutOffServer, operatorClient } from '../robots/robots-helpers';

/** Dial-time history (issue 15, docs/decisions/029) against the real ledger. */

type User = ApiSession & { email: string };

/** The hub's calls: register a robot as the user. */
async function register(user: User, model: string, name: string): Promise<string> {
  const { robot } = await user.api.call(robots, 'REGISTERSIM', {
    email: user.email,
    make: model,
    model,
    name,
    hardware_hash: randomUUID(),
  });
  if (!robot) throw new Error('REGISTERSIM answered no robot');
  return robot.robot_id;
}

/**
 * A robot another account registered: UPDATE_TIME meters only registered robots (decision 027), and
 * the caller cannot see this one, so the ledger records no model for it.
 */
async function strangerRobot(): Promise<string> {
  const stranger = await createVerifiedUser();
  const session = await loginByApi(stranger.email, PASSWORD);
  return register({ ...session, email: stranger.email }, 'Pepper', "A stranger's Pepper");
}

/** The hub's report of minutes used dialling a robot (UPDATE_TIME). */
async function dial(user: User, robotId: string, minutes: number) {
  await user.api.call(
    time,
    'UPDATE_TIME',
    { email: user.email, robot_id: robotId, minutes, idempotency_key: randomUUID() },
    { retryTransient: true },
  );
}

async function openUsage(page: Page) {
  await page.goto('/dashboard');
  await page.getByTestId('dial-time-panel').getByRole('link', { name: 'View usage' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dial Time Usage' })).toBeVisible();
  // The click leaves the pointer over the chart: its tooltip would cover the screenshots.
  await page.mouse.move(0, 0);
}

const totals = (page: Page) => page.getByTestId('usage-totals').getByRole('listitem');
const rangeButton = (page: Page, days: number) => page.getByRole('button', { name: `${days} days`, exact: true });

test('a user sees where their dial time went, per robot and day, and downloads it', async ({
  page,
  signedIn: user,
}) => {
  // Ledger entries through real actions: an operator's grant, and the hub's dial reports.
  await operatorClient().call(time, 'ADD_TIME', {
    email: user.email,
    minutes: 90,
    reason: 'e2e',
    idempotency_key: `usage-${user.email}`,
  });
  const pepper = await register(user, 'Pepper', 'Lab Pepper');
  const nao = await register(user, 'Nao', 'Old Nao');
  await dial(user, pepper, 25);
  await dial(user, pepper, 5);
  await dial(user, nao, 7);
  const stranger = await strangerRobot();
  await dial(user, stranger, 12);
  // The Nao leaves the account: the history still names it, as the ledger recorded it.
  await user.api.call(robots, 'UNREGISTER', { email: user.email, robot_id: nao });

  await openUsage(page);
  await expect(totals(page)).toHaveText([
    /^Lab Pepper.*30 minutes$/,
    new RegExp(`^Unknown robot · ${stranger.slice(0, 8)}.*12 minutes$`),
    new RegExp(`^Nao · ${nao.slice(0, 8)}.*7 minutes$`),
  ]);
  await expect(page.getByText('Total: 49 minutes')).toBeVisible();
  await expect(page.getByTestId('usage-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();
  await expect(rangeButton(page, 30)).toHaveAttribute('aria-pressed', 'true');
  await expectAccessible(page);
  await screenshots(page, 'usage-history');

  await rangeButton(page, 90).click();
  await expect(rangeButton(page, 90)).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => new URL(page.url()).searchParams.get('days')).toBe('90');
  await expect(page.getByText('Total: 49 minutes')).toBeVisible();

  // The table: always there for screen readers, shown on demand.
  await page.getByRole('button', { name: 'Show table' }).click();
  const used = page.getByRole('table', { name: 'Minutes used per day, by robot' });
  await expect(used).toBeVisible();
  await expect(used.getByRole('row')).toHaveCount(4);
  await expect(used.getByRole('row').nth(1)).toContainText('Lab Pepper');
  const added = page.getByRole('table', { name: 'Minutes added' });
  await expect(added).toContainText('Time granted');
  await expect(added).toContainText('Yearly allocation');
  await expectAccessible(page);
  await screenshots(page, 'usage-history-table');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^dial-time-usage-90-days-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile(await download.path(), 'utf8');
  const [header, ...lines] = csv.replace(/^\uFEFF/, '').split('\r\n');
  expect(header).toBe('Day (UTC),Robot,Model,Robot ID,Minutes');
  expect(lines.map((l) => l.replace(/^\d{4}-\d{2}-\d{2},/, '')).sort()).toEqual(
    [
      `Lab Pepper,Pepper,${pepper},30`,
      `Unknown robot · ${stranger.slice(0, 8)},,${stranger},12`,
      `Nao · ${nao.slice(0, 8)},Nao,${nao},7`,
    ].sort(),
  );
});

test('the history in the dark theme', async ({ page, signedIn: user }) => {
  await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
  await dial(user, await register(user, 'Tiago_Steel', 'Hall Tiago'), 15);
  await openUsage(page);
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(totals(page)).toHaveText([/^Hall Tiago.*15 minutes$/]);
  await expectAccessible(page);
  await screenshots(page, 'usage-history-dark');
  await page.getByRole('button', { name: 'Show table' }).click();
  await expectAccessible(page);
});

test('a user who has dialled nothing sees the empty state', async ({ page, signedIn: _user }) => {
  await openUsage(page);
  await expect(page.getByTestId('usage-empty')).toContainText('No dial time used in the last 30 days.');
  await rangeButton(page, 365).click();
  await expect(page.getByTestId('usage-empty')).toContainText('No dial time used in the last 365 days.');
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Show table' })).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, 'usage-empty');
});

test('an unreachable server shows the error state, and Try again recovers', async ({
  page,
  context,
  signedIn: user,
}) => {
  const stranger = await strangerRobot();
  await dial(user, stranger, 3);
  await page.goto('/dashboard');
  const link = page.getByTestId('dial-time-panel').getByRole('link', { name: 'View usage' });
  await expect(link).toBeVisible();
  await screenshots(page, 'usage-dial-panel-link');
  const network = await cutOffServer(context, page);
  await link.click();
  const error = page.getByTestId('usage-error');
  await expect(error).toContainText('Failed to load dial time usage', { timeout: 20_000 });
  await expectAccessible(page);
  await screenshots(page, 'usage-error');
  await network.reconnect();
  await error.getByRole('button', { name: 'Try again' }).click();
  await expect(totals(page)).toHaveText([new RegExp(`^Unknown robot · ${stranger.slice(0, 8)}.*3 minutes$`)]);
});
