import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Page } from '@playwright/test';
import { expectToast, inlineFailure, logOutThroughUserMenu } from '../auth/auth-helpers';
import { expect, expectAccessible, localhostUrl, readMail, screenshots, test, virtualAuthenticator } from '../fixtures';

/**
 * Passkeys end to end (issue 15 part 3) with Chromium's virtual authenticator (the CDP WebAuthn
 * domain) standing in for a fingerprint reader. WebAuthn takes no IP address as its origin, so this
 * spec talks to the server as localhost.
 */
test.use({ baseURL: localhostUrl });

/** The reference hub's `login --no-open`, printing the sign-in address and waiting for the hand-over. */
function hubLogin(portal: string, dir: string) {
  const child: ChildProcess = spawn(
    'node_modules/.bin/tsx',
    ['apps/hub/src/cli.ts', 'login', '--no-open', '--portal', portal, '--config', dir, '--json'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HUB_PORTAL_URL: '', HUB_CONFIG_DIR: '' } },
  );
  const events: Record<string, unknown>[] = [];
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    events.push(JSON.parse(line) as Record<string, unknown>);
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, events, exited };
}

const passkeys = (page: Page) => page.getByRole('list', { name: 'Passkeys' });

test('a passkey is added, signs in to the portal and the hub, is renamed and removed, then refused', async ({
  page,
  signedIn: user,
}) => {
  test.slow();
  await virtualAuthenticator(page);
  await page.goto('/dashboard/user/profile');
  await expect(page.getByRole('heading', { name: 'Security', exact: true })).toBeVisible();
  await expect(page.getByText('You have no passkeys yet.', { exact: false })).toBeVisible();

  // Add, named: an empty name is refused first.
  await page.getByRole('button', { name: 'Add a passkey', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
  await dialog.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(dialog.getByText('Please enter a name for the passkey')).toBeVisible();
  await dialog.getByLabel('Passkey name', { exact: true }).fill('Test laptop');
  await dialog.getByRole('button', { name: 'Continue', exact: true }).click();
  await expectToast(page, 'Passkey Added');
  await expect(dialog).toBeHidden();
  await expect(passkeys(page).getByText('Test laptop', { exact: true })).toBeVisible();
  await expect(passkeys(page).getByText(/Not used yet/)).toBeVisible();
  expect(await readMail(user.email, { subject: /A passkey was added/ })).toContain('"Test laptop"');
  await expectAccessible(page);
  await screenshots(page, 'security-passkeys');

  // Sign out, then in again with the passkey alone.
  await logOutThroughUserMenu(page, user.email);
  await expect(page).toHaveURL(/\/auth\/login/);
  await page.getByRole('button', { name: 'Sign in with a passkey', exact: true }).click();
  await expectToast(page, 'Login Successful');
  await expect(page).toHaveURL(/\/dashboard$/);
  // The first sign-in in this browser (the account's was over the API): a security email.
  expect(await readMail(user.email, { subject: /New sign-in to your/ })).toMatch(/with a passkey from a browser/);

  // The hub target: the same passkey, and the hub gets the encrypted hand-off.
  const dir = await mkdtemp(join(tmpdir(), 'hub-passkey-'));
  const hub = hubLogin(localhostUrl, dir);
  try {
    await expect.poll(() => hub.events[0]?.event, { timeout: 30_000 }).toBe('waiting');
    await page.goto(String(hub.events[0]?.url));
    await page.getByRole('button', { name: 'Sign in with a passkey', exact: true }).click();
    await expect(page).toHaveURL(/\/auth\/complete\?success=true/);
    expect(await hub.exited).toBe(0);
    expect(hub.events.at(-1)).toMatchObject({ event: 'signed_in', email: user.email });
  } finally {
    hub.child.kill();
    await rm(dir, { recursive: true, force: true });
  }

  // Rename, then remove after a confirmation.
  await page.goto('/dashboard/user/profile');
  await expect(passkeys(page).getByText(/Last used/)).toBeVisible();
  await passkeys(page).getByRole('button', { name: 'Rename passkey Test laptop', exact: true }).click();
  const rename = page.getByRole('dialog', { name: 'Rename passkey' });
  await expect(rename.getByLabel('Passkey name', { exact: true })).toHaveValue('Test laptop');
  await rename.getByLabel('Passkey name', { exact: true }).fill('Desk key');
  await rename.getByRole('button', { name: 'Save name', exact: true }).click();
  await expectToast(page, 'Passkey Renamed');
  await expect(passkeys(page).getByText('Desk key', { exact: true })).toBeVisible();

  await passkeys(page).getByRole('button', { name: 'Remove passkey Desk key', exact: true }).click();
  const remove = page.getByRole('dialog', { name: 'Remove this passkey?' });
  await expect(remove).toContainText('"Desk key" will no longer sign in to your account.');
  await expectAccessible(page);
  await screenshots(page, 'security-passkey-remove-dialog');
  await remove.getByRole('button', { name: 'Remove passkey', exact: true }).click();
  await expectToast(page, 'Passkey Removed');
  await expect(page.getByText('You have no passkeys yet.', { exact: false })).toBeVisible();

  // The authenticator still holds it, but it no longer signs in, and the page says why.
  await logOutThroughUserMenu(page, user.email);
  await expect(page).toHaveURL(/\/auth\/login/);
  await page.getByRole('button', { name: 'Sign in with a passkey', exact: true }).click();
  await expect(inlineFailure(page, 'Passkey Not Accepted')).toContainText('removed from your account');
  await expect(page).toHaveURL(/\/auth\/login/);
});
