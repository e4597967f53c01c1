import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { license as licenseService, robots } from '@portal/contract';
import postgres from 'postgres';
import {
  type Account,
  type ApiSession,
  createVerifiedUser,
  expect,
  expectAccessible,
  guardConsole,
  loginByApi,
  screenshots,
  signInByApi,
  test,
} from '../fixtures';
import { grid, operatorClient } from '../robots/robots-helpers';
import { type LiveServers, startLiveServers } from './live-servers';

/**
 * Live robot status across instances (issue 15): the reference hub reports a robot's availability
 * through instance A; the Robot Manager, open on instance B with polling switched off, shows it
 * without a reload. A second user's page on B gets its own event and never the first user's.
 */

test.describe.configure({ mode: 'serial' });

let live: LiveServers;
test.beforeAll(async () => {
  // a PostgreSQL of its own, and two instances that migrate one after the other
  test.setTimeout(180_000);
  live = await startLiveServers();
});
test.afterAll(async () => {
  await live?.stop();
});

interface Owner extends Account, ApiSession {
  robotId: string;
}

/** A user of instance A with a Nao driver license paired with a registered robot (the hub's calls, over the API). */
async function ownerWithRobot(name: string, robotName: string): Promise<Owner> {
  const account = await createVerifiedUser({ name, baseUrl: live.a });
  const session = await loginByApi(account.email, account.password, live.a);
  const operator = operatorClient(live.a);
  await operator.call(licenseService, 'BUYASSET', { email: account.email, asset_id: 'driver-nao' });
  const granted = await session.api.call(licenseService, 'GetLicences', { email: account.email });
  const code = granted.user_licenses?.robot_licenses[0]?.pair_code ?? '';
  const { robot } = await session.api.call(robots, 'REGISTERSIM', {
    email: account.email,
    make: 'Nao',
    model: 'Nao',
    name: robotName,
    hardware_hash: `live-${robotName}-${account.email}`,
  });
  if (!robot) throw new Error('REGISTERSIM answered no robot');
  await session.api.call(licenseService, 'PAIRROBOT', {
    email: account.email,
    pair_code: code,
    robot_id: robot.robot_id,
  });
  return { ...account, ...session, robotId: robot.robot_id };
}

/** The reference hub's command line (apps/hub), signed in as the user on instance A, reports the robot available. */
async function hubReportsAvailable(owner: Owner, dir: string) {
  const hubDir = await mkdtemp(join(dir, 'hub-'));
  // The hub's credentials file, as its login writes it after the browser hand-over (tested in auth/hub.spec.ts).
  const { mkdir, writeFile } = await import('node:fs/promises');
  await mkdir(hubDir, { recursive: true, mode: 0o700 });
  const session = await loginByApi(owner.email, owner.password, live.a);
  const credentials = {
    user: { user_id: session.user.user_id, email: session.user.email, name: session.user.name },
    token_pair: session.pair,
    portal: live.a,
    received_at: Math.floor(Date.now() / 1000),
  };
  await writeFile(join(hubDir, 'credentials.json'), JSON.stringify(credentials), { mode: 0o600 });
  const child: ChildProcess = spawn(
    'node_modules/.bin/tsx',
    [
      'apps/hub/src/cli.ts',
      'robot',
      'available',
      '--robot',
      owner.robotId,
      '--on',
      '--lat=51.5',
      '--lon=-0.12',
      '--portal',
      live.a,
      '--config',
      hubDir,
      '--json',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HUB_PORTAL_URL: '', HUB_CONFIG_DIR: '' } },
  );
  let out = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code, out).toBe(0);
  expect(JSON.parse(out.trim().split('\n').at(-1) ?? '{}').robot).toMatchObject({ robot_state: { available: true } });
}

/** Every data frame the page's EventSource received (Chrome DevTools Protocol), as text. */
async function eventSourceFrames(page: Page): Promise<string[]> {
  const frames: string[] = [];
  const cdp = await page.context().newCDPSession(page);
  cdp.on('Network.eventSourceMessageReceived', (e: { data: string }) => frames.push(e.data));
  await cdp.send('Network.enable');
  return frames;
}

/** The Robot Manager of a user on instance B, once its live stream is open. */
async function liveManager(page: Page, user: Account) {
  await signInByApi(page, user.email, user.password, { baseUrl: live.b });
  const frames = await eventSourceFrames(page);
  await page.goto(`${live.b}/dashboard`);
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-state', 'open');
  return frames;
}

test('a robot reported through instance A flips on instance B, and only for its owner', async ({ page, browser }) => {
  test.slow();
  const dir = await mkdtemp(join(tmpdir(), 'live-e2e-'));
  const [first, second] = await Promise.all([
    ownerWithRobot('Fleet Owner', 'Atlas'),
    ownerWithRobot('Second Owner', 'Boreas'),
  ]);
  // An unpaired license left so for 40 days: its age is set in the database, as time cannot be moved on a real server.
  await operatorClient(live.a).call(licenseService, 'BUYASSET', { email: first.email, asset_id: 'driver-nao' });
  const sql = postgres(live.databaseUrl, { max: 1, onnotice: () => {} });
  await sql`update robot_licenses set created_at = now() - interval '40 days'
            where robot_id is null and user_id = ${first.user.user_id}::uuid`;
  await sql.end();

  const firstFrames = await liveManager(page, first);
  const mine = grid(page, 'MY ROBOTS');
  const atlas = mine.getByRole('link').filter({ hasText: 'Atlas' });
  await expect(atlas).toContainText('Inactive');
  await expect(atlas.getByTestId('last-seen')).toHaveText('Not seen yet');

  const otherPage = await browser.newPage();
  const otherErrors = guardConsole(otherPage);
  const secondFrames = await liveManager(otherPage, second);
  const boreas = grid(otherPage, 'MY ROBOTS').getByRole('link').filter({ hasText: 'Boreas' });
  await expect(boreas).toContainText('Inactive');

  // The first user's event, through A by the hub; the page on B shows it without a reload.
  await hubReportsAvailable(first, dir);
  await expect(atlas).toContainText('Active');
  await expect(atlas).not.toContainText('Inactive');
  await expect(atlas.getByTestId('last-seen')).toHaveText(/^Last seen \w{3} \d{2}:\d{2} \d{2}\/\d{2}\/\d{4}$/);
  expect(firstFrames.some((f) => f.includes(first.robotId))).toBe(true);

  // The sentinel: the second user's own event, sent after the first user's, reaches the second page...
  await second.api.call(robots, 'UPDATEROBOT', {
    email: second.email,
    robot_id: second.robotId,
    robot_state: { available: true },
  });
  await expect(boreas).toContainText('Active');
  await expect(boreas).not.toContainText('Inactive');
  // ...which by then would have had the first user's, had it been sent there. It never was.
  expect(secondFrames.some((f) => f.includes(second.robotId))).toBe(true);
  expect(secondFrames.filter((f) => f.includes(first.robotId))).toEqual([]);
  expect(firstFrames.filter((f) => f.includes(second.robotId))).toEqual([]);
  expect(otherErrors()).toEqual([]);
  await otherPage.close();

  // The license left unpaired for 40 days is marked, with why.
  const unused = mine.getByTestId('robot-card').filter({ has: page.getByTestId('pair-code') });
  await expect(unused.getByTestId('unused-license')).toContainText('Unused');
  await expect(unused.getByTestId('unused-license')).toContainText(/Unpaired since \d{2}\/\d{2}\/\d{4}/);
  await expectAccessible(page);
  await screenshots(page, 'live-robot-manager');

  // The manage page says when the robot was last seen; the dark theme too.
  await atlas.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Atlas' })).toBeVisible();
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-state', 'open');
  await expect(page.getByTestId('last-seen')).toHaveText(/^\w{3} \d{2}:\d{2} \d{2}\/\d{2}\/\d{4}$/);
  await expectAccessible(page);
  await screenshots(page, 'live-robot-manage');
  await page.evaluate(() => localStorage.setItem('theme', 'dark'));
  await page.goto(`${live.b}/dashboard`);
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(atlas).toContainText('Active');
  await expect(unused.getByTestId('unused-license')).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, 'live-robot-manager-dark');
  await rm(dir, { recursive: true, force: true });
});
