import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { HubClient } from '../../../hub/src/hub-client.ts';
import { api, expect, loginByApi } from '../fixtures';

/** The demo account the server seeds on an empty database (SEED_DEMO). Tests only read it. */
export const DEMO = { email: 'demo@robot-portal.local', password: 'Demo-Robot-2026!' };

/** An access token for an account, signed in over the API. */
export async function accessToken(request: APIRequestContext, email: string, password: string): Promise<string> {
  const { pair } = await loginByApi(request, email, password);
  return pair.access_token as string;
}

/** A signed-in call of an action; fails the test unless it succeeds. */
export async function call<T = Record<string, unknown>>(
  request: APIRequestContext,
  path: string,
  body: Record<string, unknown>,
  token: string,
): Promise<T> {
  const res = await api(request, path, body, token);
  expect(res.body.error?.Success, `${path} ${String(body.action)}: ${res.body.error?.Description}`).not.toBe(false);
  return res.body as T;
}

/**
 * An operator's call (x-operator-token). The server under test gets OPERATOR_TOKEN from the
 * environment Playwright runs in.
 */
export async function operatorCall(request: APIRequestContext, path: string, body: Record<string, unknown>) {
  const token = process.env.OPERATOR_TOKEN;
  expect(token, 'OPERATOR_TOKEN must be set for the end-to-end server').toBeTruthy();
  const csrf = (await request.get('/api/useraction')).headers()['x-csrf-token'] ?? '';
  const res = await request.post(path, {
    data: body,
    headers: { 'x-csrf-token': csrf, 'x-operator-token': token as string },
  });
  const json = (await res.json()) as { error?: { Success: boolean; Description: string } };
  expect(json.error?.Success, `${path} ${String(body.action)}: ${json.error?.Description}`).not.toBe(false);
  return json;
}

/** The robot cards of a grid section ("MY ROBOTS" or "SHARED ROBOTS"). */
export function grid(page: Page, title: 'MY ROBOTS' | 'SHARED ROBOTS') {
  return page.getByRole('region', { name: new RegExp(`^${title} \\(\\d+\\)$`) });
}

/**
 * The reference hub (apps/hub) signed in as an account: the tokens of an API sign-in are handed to
 * it as the browser sign-in would hand them over.
 */
export async function hubFor(request: APIRequestContext, portal: string, email: string, password: string) {
  const { user, pair: token_pair } = await loginByApi(request, email, password);
  return new HubClient({
    portal,
    credentials: {
      user: { user_id: user.user_id, email: user.email, name: user.name },
      token_pair,
      portal,
      received_at: Math.floor(Date.now() / 1000),
    },
  });
}

/** Gives the account a subscription through the operator API (GrantSubscription), as an operator would. */
export async function grantSubscription(
  request: APIRequestContext,
  email: string,
  tier: 'Lite Subscription' | 'Standard Subscription' | 'Pro Subscription',
) {
  return operatorCall(request, '/api/operator', { action: 'GrantSubscription', email, tier, override_kind: 1 });
}

/** Opens a screen from the sidebar, as a person would: the loaded shell navigates without a page load. */
export async function openFromSidebar(page: Page, name: 'Dashboard' | 'Downloads') {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
}

/**
 * Makes the portal's server unreachable from this page: the browser's own network stack fails every
 * /api/ request (as when the server is down or a proxy drops the connection) until `reconnect`.
 * Nothing answers in the server's place. The browser still reports itself online: with the browser
 * offline (context.setOffline) the web app waits for the network instead of failing (TanStack
 * Query pauses queries while offline), so that condition cannot show the error states.
 */
export async function cutOffServer(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setBlockedURLs', { urls: ['*/api/*'] });
  return {
    async reconnect() {
      await cdp.send('Network.setBlockedURLs', { urls: [] });
      await cdp.detach();
    },
  };
}

/** Slows the real network of this page (Chrome DevTools Protocol): every request waits `latencyMs` first. */
export async function slowNetwork(context: BrowserContext, page: Page, latencyMs: number) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: latencyMs,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  return cdp;
}

/** Loads the signed-in shell on a page that asks the server for nothing (the FAQ). */
export async function loadShell(page: Page) {
  await page.goto('/dashboard/faq');
  await expect(page.getByRole('heading', { level: 1, name: 'Frequently asked questions' })).toBeVisible();
}
