import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CredentialsStore } from '../../../hub/src/hub-credentials.ts';
import { startHubLogin } from '../../../hub/src/hub-login.ts';
import { createVerifiedUser, expect, expectAccessible, screenshots, test } from '../fixtures';
import { inlineFailure, submitSignIn, WRONG_PASSWORD } from './auth-helpers';

/** Hub target end to end (issue 3 deliverable 7) with the real apps/hub loopback client. */

test('the hub client receives the credentials of a sign-in in the browser', async ({ page, request, baseURL }) => {
  const user = await createVerifiedUser(request);
  const dir = await mkdtemp(join(tmpdir(), 'hub-e2e-'));
  const rejected: string[] = [];
  const hub = await startHubLogin({
    portal: baseURL as string,
    store: new CredentialsStore(dir),
    timeoutMs: 55_000,
    onRejected: (reason) => rejected.push(reason),
  });
  try {
    await page.goto(hub.url);
    await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in to Hub', exact: true })).toBeEnabled();
    await expect(page.getByRole('checkbox', { name: 'Remember me', exact: true })).toHaveCount(0);
    await expect(page.getByText(new URL(hub.callbackUrl).host)).toBeVisible();
    await expectAccessible(page);
    await screenshots(page, 'auth-login-hub');

    // A wrong password first: the hub keeps waiting.
    await submitSignIn(page, user.email, WRONG_PASSWORD, 'Sign in to Hub');
    await expect(inlineFailure(page, 'Authentication Failed')).toBeVisible();

    await submitSignIn(page, user.email, user.password, 'Sign in to Hub');
    await expect(page).toHaveURL(/\/auth\/complete\?/);
    expect(new URL(page.url()).searchParams.get('success')).toBe('true');
    await expect(page.getByRole('heading', { name: 'Authentication Complete', exact: true })).toBeVisible();

    const credentials = await hub.done;
    expect(credentials.user.email).toBe(user.email);
    expect(credentials.token_pair.access_token).toBeTruthy();
    expect(credentials.portal).toBe(baseURL);
    expect(rejected).toEqual([]);
    // Stored for the hub, not in the browser.
    expect((await new CredentialsStore(dir).load())?.user.email).toBe(user.email);
    expect((await stat(join(dir, 'credentials.json'))).mode & 0o777).toBe(0o600);
    expect(
      await page.evaluate(() => [localStorage.getItem('refresh_token'), sessionStorage.getItem('refresh_token')]),
    ).toEqual([null, null]);
    await expect(page.getByRole('link', { name: 'Return to Dashboard', exact: true })).toBeVisible();
  } finally {
    hub.cancel();
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
  await page.waitForTimeout(500);
  expect(calls).toEqual([]);
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
