import type { BrowserContext, Page } from '@playwright/test';
import { type Client, createClient } from '@portal/client';
import { operator } from '@portal/contract';
import { expect, portal } from '../fixtures';

/** The demo account the server seeds on an empty database (SEED_DEMO). Tests only read it. */
export const DEMO = { email: 'demo@robot-portal.local', password: 'Demo-Robot-2026!' };

/**
 * An operator's client: the contract's `operator` actions carry the OPERATOR_TOKEN that the server
 * under test gets from the environment Playwright runs in.
 */
export function operatorClient(baseUrl?: string): Client {
  const token = process.env.OPERATOR_TOKEN;
  expect(token, 'OPERATOR_TOKEN must be set for the end-to-end server').toBeTruthy();
  const base = portal(baseUrl);
  return createClient({ baseUrl: base.baseUrl, origin: base.baseUrl, operatorToken: token as string });
}

/** The robot cards of a grid section ("MY ROBOTS" or "SHARED ROBOTS"). */
export function grid(page: Page, title: 'MY ROBOTS' | 'SHARED ROBOTS') {
  return page.getByRole('region', { name: new RegExp(`^${title} \\(\\d+\\)$`) });
}

/** Gives the account a subscription through the operator API (GrantSubscription), as an operator would. */
export async function grantSubscription(
  email: string,
  tier: 'Lite Subscription' | 'Standard Subscription' | 'Pro Subscription',
) {
  return operatorClient().call(operator, 'GrantSubscription', { email, tier, override_kind: 1 });
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
