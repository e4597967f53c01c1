import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { operator } from '@portal/contract';
import { freePort } from '@portal/testing/net';
import { serverDir, serverEnv } from '../../../../playwright.config';
import { expect, loginByApi } from '../fixtures';
import { loadShell, operatorClient } from '../robots/robots-helpers';

/** Steps the flexible-license specs share (spec/001 §2, §4; docs/decisions/061). */

export const FLEX_PAGE = '/dashboard/subscriptions/flexible_licenses';

/** An operator's grant of slots (SetSlotAmount), on the main server unless told. */
export async function giveSlots(email: string, amount: number | null, baseUrl?: string) {
  return operatorClient(baseUrl).call(operator, 'SetSlotAmount', { email, amount });
}

/** Opens the screen from the sidebar, as a person would, and waits for the board. */
export async function openBoard(page: Page) {
  await loadShell(page);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Flexible Licenses', exact: true })
    .click();
  await expectBoard(page);
}

export async function expectBoard(page: Page) {
  await expect(page).toHaveURL(new RegExp(`${FLEX_PAGE}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Flexible License Management' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Selected Robot Licenses' })).toBeVisible();
}

export const slot = (page: Page, n: number) => page.getByTestId('flex-slot').nth(n);
export const slotModel = (page: Page, n: number) => slot(page, n).getByTestId('license-model');
export const slotLicense = (page: Page, n: number) => slot(page, n).getByTestId('slot-license');
export const update = (page: Page) => page.getByRole('button', { name: 'Update Flexible Licenses' });
export const confirmSync = (page: Page) => page.getByRole('dialog', { name: 'Confirm Sync' });

/** Fills an empty slot through its "Select Robot License" dialog. */
export async function chooseForSlot(page: Page, n: number, model: RegExp) {
  await slot(page, n).getByRole('button', { name: 'Click to select a robot license' }).click();
  const dialog = page.getByRole('dialog', { name: 'Select Robot License' });
  await dialog.getByRole('button', { name: model }).click();
  await expect(dialog).toBeHidden();
}

/** The pairing code a saved slot shows. */
export async function pairingCodeOf(page: Page, n: number): Promise<string> {
  await expect(slotLicense(page, n)).toHaveText(/^Pairing Code: [A-Z2-9]{8}$/);
  return ((await slotLicense(page, n).textContent()) ?? '').replace('Pairing Code: ', '').trim();
}

/** The list items of Confirm Sync's "Changes" or "Kept". */
export function syncList(page: Page, which: 'changes' | 'kept'): Locator {
  return confirmSync(page).getByTestId(`sync-${which}`).getByRole('listitem');
}

async function centre(locator: Locator) {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on screen');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Drags with the mouse from `source` onto `target` (a slot), past the sensor's few pixels. */
export async function dragOnto(page: Page, source: Locator, target: Locator) {
  const from = await centre(source);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 12, from.y + 12, { steps: 4 });
  const box = await target.boundingBox();
  if (!box) throw new Error('target not on screen');
  await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 40), { steps: 12 });
  await page.mouse.up();
}

// ---- the reference hub (apps/hub) --------------------------------------------------------------

export interface HubAnswer {
  code: number | null;
  json: Record<string, unknown>;
  out: string;
}

/** A hub row of `robots --json`. */
export interface HubRobot {
  name: string;
  model: string;
  robot_id: string;
  license_id: string;
  paired: boolean;
  pair_code: string;
  flexible: boolean;
}

/**
 * The reference hub's command line signed in as the user: its credentials file as its login writes
 * it after the browser hand-over (tested in auth/hub.spec.ts), in a folder of its own.
 */
export async function hubFor(account: { email: string; password: string }, portal: string) {
  const dir = await mkdtemp(join(tmpdir(), 'flex-hub-'));
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const session = await loginByApi(account.email, account.password, portal);
  const credentials = {
    user: { user_id: session.user.user_id, email: session.user.email, name: session.user.name },
    token_pair: session.pair,
    portal,
    received_at: Math.floor(Date.now() / 1000),
  };
  await writeFile(join(dir, 'credentials.json'), JSON.stringify(credentials), { mode: 0o600 });

  async function run(...args: string[]): Promise<HubAnswer> {
    const child: ChildProcess = spawn(
      'node_modules/.bin/tsx',
      ['apps/hub/src/cli.ts', ...args, '--portal', portal, '--config', dir, '--json'],
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
    const last = out.trim().split('\n').at(-1) ?? '{}';
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(last) as Record<string, unknown>;
    } catch {
      // a failure that printed no JSON: `out` says what happened
    }
    return { code, json, out };
  }

  return {
    run,
    /** `robot register` then `robot pair` with the code the screen shows; answers the robot id. */
    async registerAndPair(name: string, model: string, code: string): Promise<string> {
      const registered = await run('robot', 'register', '--make', model, '--model', model, '--name', name);
      expect(registered.code, registered.out).toBe(0);
      const robotId = (registered.json.robot as { robot_id: string }).robot_id;
      const paired = await run('robot', 'pair', '--code', code, '--robot', robotId);
      expect(paired.code, paired.out).toBe(0);
      return robotId;
    },
    /** The hub's robot list (`robots --json`). */
    async robots(): Promise<HubRobot[]> {
      const listed = await run('robots');
      expect(listed.code, listed.out).toBe(0);
      return listed.json.robots as HubRobot[];
    },
    stop: () => rm(dir, { recursive: true, force: true }),
  };
}

// ---- a server of its own with the demo account -------------------------------------------------

/**
 * The built server on a free port with the demo data seeded (SEED_DEMO), in a data folder of its own:
 * a test that upgrades the demo account must not change the one the other specs read.
 */
export async function startDemoServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = `${process.env.E2E_DATA_DIR}-flex-demo-${port}`;
  await rm(dataDir, { recursive: true, force: true });
  const child = spawn('node', [`${serverDir}/server.js`], {
    env: { ...process.env, ...serverEnv({ port, dataDir, seedDemo: true }) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    err = (err + chunk.toString()).slice(-4000);
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await expect
      .poll(
        async () => {
          if (child.exitCode !== null) throw new Error(`the demo server exited with ${child.exitCode}\n${err}`);
          return fetch(`${url}/readyz`).then(
            (res) => res.ok,
            () => false,
          );
        },
        { timeout: 60_000 },
      )
      .toBe(true);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}
