import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect, expectAccessible, screenshots, test } from '../fixtures';
import { inlineFailure, submitSignIn, WRONG_PASSWORD } from './auth-helpers';

/**
 * Hub target end to end (issue 3 deliverable 7) with the real reference hub (apps/hub) running as
 * its own process, as a person would run it: `login --no-open` prints the sign-in address and waits
 * on its loopback port for the browser's hand-over.
 */

interface HubProcess {
  child: ChildProcess;
  /** the hub's --json lines on stdout, as they arrive */
  events: Record<string, unknown>[];
  stderr: string[];
  /** resolves with the exit code */
  exited: Promise<number | null>;
}

function runHub(args: string[]): HubProcess {
  const child = spawn('node_modules/.bin/tsx', ['apps/hub/src/cli.ts', ...args, '--json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, HUB_PORTAL_URL: '', HUB_CONFIG_DIR: '' },
  });
  const events: Record<string, unknown>[] = [];
  const stderr: string[] = [];
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    events.push(JSON.parse(line) as Record<string, unknown>);
  });
  createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => stderr.push(line));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, events, stderr, exited };
}

test('the hub receives the credentials of a sign-in in the browser', async ({ page, account: user, baseURL }) => {
  const dir = await mkdtemp(join(tmpdir(), 'hub-e2e-'));
  const hub = runHub(['login', '--no-open', '--portal', baseURL as string, '--config', dir]);
  try {
    await expect.poll(() => hub.events[0]?.event, { timeout: 30_000 }).toBe('waiting');
    const url = String(hub.events[0]?.url);
    const callback = new URL(new URL(url).searchParams.get('redirect') ?? '');
    expect(callback.hostname).toBe('127.0.0.1');

    await page.goto(url);
    await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in to Hub', exact: true })).toBeEnabled();
    await expect(page.getByRole('checkbox', { name: 'Remember me', exact: true })).toHaveCount(0);
    await expect(page.getByText(callback.host)).toBeVisible();
    await expectAccessible(page);
    await screenshots(page, 'auth-login-hub');

    // A wrong password first: nothing reaches the hub, which keeps waiting.
    await submitSignIn(page, user.email, WRONG_PASSWORD, 'Sign in to Hub');
    await expect(inlineFailure(page, 'Authentication Failed')).toBeVisible();

    await submitSignIn(page, user.email, user.password, 'Sign in to Hub');
    await expect(page).toHaveURL(/\/auth\/complete\?/);
    expect(new URL(page.url()).searchParams.get('success')).toBe('true');
    await expect(page.getByRole('heading', { name: 'Authentication Complete', exact: true })).toBeVisible();

    expect(await hub.exited, hub.stderr.join('\n')).toBe(0);
    expect(hub.events.at(-1)).toMatchObject({ event: 'signed_in', email: user.email, portal: baseURL });
    // No refused hand-over on the way.
    expect(hub.stderr.filter((line) => line.startsWith('Refused'))).toEqual([]);
    // Stored for the hub, readable only by its user, and not in the browser.
    const file = join(dir, 'credentials.json');
    const stored = JSON.parse(await readFile(file, 'utf8')) as { user: { email: string }; token_pair: object };
    expect(stored.user.email).toBe(user.email);
    expect(stored.token_pair).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String) });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(
      await page.evaluate(() => [localStorage.getItem('refresh_token'), sessionStorage.getItem('refresh_token')]),
    ).toEqual([null, null]);
    await expect(page.getByRole('link', { name: 'Return to Dashboard', exact: true })).toBeVisible();

    // The hub's session works: whoami asks the portal.
    const whoami = runHub(['whoami', '--config', dir]);
    expect(await whoami.exited, whoami.stderr.join('\n')).toBe(0);
    expect(whoami.events.at(-1)).toMatchObject({ email: user.email, verified: true });
  } finally {
    hub.child.kill();
    await rm(dir, { recursive: true, force: true });
  }
});

test('a hub sign-in to a non-loopback address is refused without calling the server', async ({ page }) => {
  const key = Buffer.from(
    JSON.stringify({
      kty: 'EC',
      crv: 'P-256',
      x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
      y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
    }),
  ).toString('base64url');
  const calls: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST') calls.push(r.url());
  });

  await page.goto(`/auth/login?target=hub&redirect=${encodeURIComponent('http://evil.example/cb')}&hub_key=${key}`);
  const refusal = page.getByRole('alert').filter({ hasText: 'This Hub sign-in link cannot be used' });
  await expect(refusal).toContainText('Refused');
  const submit = page.getByRole('button', { name: 'Sign in to Hub', exact: true });
  await expect(submit).toBeDisabled();

  // Even submitting with Enter sends nothing anywhere.
  await page.getByLabel('Email', { exact: true }).fill('someone@example.test');
  await page.getByLabel('Password', { exact: true }).fill('Whatever-Pass-1!');
  await page.getByLabel('Password', { exact: true }).press('Enter');
  // Nothing to wait for when nothing happens: the page stays, and the requests are counted at the
  // end, after the navigations below (a submitted form would have sent long before those).
  await expect(page).toHaveURL(/\/auth\/login\?/);
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, 'auth-login-hub-refused');

  // Other non-loopback forms are refused too.
  for (const redirect of [
    'https://127.0.0.1:4000/cb',
    'http://user:pw@127.0.0.1:4000/cb',
    'http://127.0.0.1.evil.example/cb',
  ]) {
    await page.goto(`/auth/login?target=hub&redirect=${encodeURIComponent(redirect)}&hub_key=${key}`);
    await expect(
      page.getByRole('alert').filter({ hasText: 'This Hub sign-in link cannot be used' }),
      redirect,
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in to Hub', exact: true })).toBeDisabled();
  }
  expect(calls).toEqual([]);
});

test('a hub link without its key cannot be used', async ({ page }) => {
  await page.goto(`/auth/login?target=hub&redirect=${encodeURIComponent('http://127.0.0.1:45678/callback')}`);
  await expect(page.getByRole('alert').filter({ hasText: 'missing its key' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in to Hub', exact: true })).toBeDisabled();
});
