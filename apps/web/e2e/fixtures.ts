import AxeBuilder from '@axe-core/playwright';
import { type BrowserContext, test as base, expect, type Page } from '@playwright/test';
import { type Client, createClient } from '@portal/client';
import {
  type Account,
  type ApiSession,
  createVerifiedUser as createVerifiedAccount,
  linkIn,
  type ReadMailOptions,
  readMail as readOutbox,
  signInByApi as signInOverApi,
  uniqueEmail as testEmail,
} from '@portal/testing';

import {
  canonicalServer,
  emptyServer,
  linuxOnlyServer,
  liveServers,
  baseURL as mainUrl,
  noStorageServer,
} from '../../../playwright.config';

export type { Account, ApiSession };
export { linkIn };

export const PASSWORD = 'E2e-Robot-Pass-1!';
export const dataDir = () => process.env.E2E_DATA_DIR as string;

/**
 * The main server by the name localhost: WebAuthn takes no IP address as its origin, so the passkey
 * specs use this address (the server allows localhost on its port by default).
 */
export const localhostUrl = mainUrl.replace('127.0.0.1', 'localhost');

/** The data folder (and so the outbox) of each server the end-to-end run starts. */
const DATA_DIRS: Record<string, () => string> = {
  [mainUrl]: dataDir,
  [localhostUrl]: dataDir,
  [emptyServer.url]: () => emptyServer.dataDir,
  [linuxOnlyServer.url]: () => linuxOnlyServer.dataDir,
  [liveServers.a.url]: () => liveServers.a.dataDir,
  [liveServers.b.url]: () => liveServers.b.dataDir,
  [canonicalServer.url]: () => canonicalServer.dataDir,
  [noStorageServer.url]: () => noStorageServer.dataDir,
};

function dataDirOf(baseUrl: string): string {
  const dir = DATA_DIRS[baseUrl]?.();
  if (!dir) throw new Error(`no data folder known for ${baseUrl}`);
  return dir;
}

export const uniqueEmail = (label = 'e2e') => testEmail(label);

/**
 * The portal's action client, as a program outside the browser uses it (Node's fetch, an Origin
 * header). Signed-in calls need `withTokens` (see `signInByApi`); `send` answers the raw status for
 * tests of a refusal.
 */
export function portal(baseUrl: string = mainUrl): Client {
  return createClient({ baseUrl, origin: baseUrl, fetch: globalThis.fetch });
}

/** The newest mail to an address in the outbox of the main server (or `dataDir`'s), waiting for it. */
export function readMail(email: string, opts: ReadMailOptions & { dataDir?: string } = {}): Promise<string> {
  return readOutbox(opts.dataDir ?? dataDir(), email, opts);
}

/** A verified user registered through the API on the server at `baseUrl` (the main one by default). */
export function createVerifiedUser(opts: { name?: string; email?: string; baseUrl?: string } = {}): Promise<Account> {
  const baseUrl = opts.baseUrl ?? mainUrl;
  return createVerifiedAccount(portal(baseUrl), dataDirOf(baseUrl), { ...opts, password: PASSWORD });
}

/** Signs in through the real sign-in form. */
export async function signInThroughForm(page: Page, email: string, password: string, path = '/auth/login') {
  await page.goto(path);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in to Portal' }).click();
}

/** Signs in over the API with a session of its own (target portal), on the main server by default. */
export function loginByApi(email: string, password: string, baseUrl: string = mainUrl): Promise<ApiSession> {
  return signInOverApi(portal(baseUrl), email, password);
}

/**
 * Signs in by API and puts the session where the web app keeps it (local storage of the portal's
 * origin), as if the user had signed in before; call it before the page's first navigation. The
 * first visit is marked completed unless `firstVisitDone` is false, which lets the onboarding tour
 * open. Prefer the `signedIn` fixture; this is for a second page or account in one test.
 */
export async function signInByApi(
  target: Page | BrowserContext,
  email: string,
  password: string,
  { firstVisitDone = true, baseUrl = mainUrl }: { firstVisitDone?: boolean; baseUrl?: string } = {},
): Promise<ApiSession> {
  const session = await loginByApi(email, password, baseUrl);
  const context = 'context' in target ? target.context() : target;
  const { pair, user } = session;
  const localStorage = [
    { name: 'access_token', value: pair.access_token },
    { name: 'refresh_token', value: pair.refresh_token },
    { name: 'user_email', value: user.email },
    { name: 'user_id', value: user.user_id },
    ...(firstVisitDone ? [{ name: 'hasCompletedFirstVisit', value: 'true' }] : []),
  ];
  await context.setStorageState({ cookies: [], origins: [{ origin: new URL(baseUrl).origin, localStorage }] });
  return session;
}

/** The path and query of the current address, as an object, for a readable comparison. */
export function currentAddress(page: Page): { path: string } & Record<string, string> {
  const url = new URL(page.url());
  return { path: url.pathname, ...Object.fromEntries(url.searchParams) };
}

/** Waits for the address of the sign-in page the app sends a signed-out user to. */
export async function expectSignInPage(page: Page, search: Record<string, string> = { target: 'portal' }) {
  await expect.poll(() => currentAddress(page)).toEqual({ path: '/auth/login', ...search });
}

/**
 * Collects console errors and uncaught errors of a page. The auto fixture below applies it to the
 * test's own `page`; call it for any other page a test opens and assert the answer is empty.
 */
export function guardConsole(page: Page): () => string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const text = msg.text();
    // The browser logs every non-2xx fetch and the unreachable avatar service; tests assert on those answers themselves.
    if (/Failed to load resource|net::ERR_/.test(text)) return;
    errors.push(`console: ${text}`);
  });
  return () => errors;
}

/**
 * axe on the current page, once it has settled: no serious or critical violation. A toast still
 * fading in has the contrast of a half-transparent one, so axe waits for every finite animation and
 * transition to end (spinners run for ever and are left out).
 */
export async function expectAccessible(page: Page) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY),
  );
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

/** Screenshots at desktop and phone widths into screenshots/ for a person to look at. */
export async function screenshots(page: Page, name: string) {
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  // A full-page capture keeps the scroll position, and fixed parts (sidebar, top bar) would be
  // drawn where the viewport was: from the top they stand where a person sees them.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `screenshots/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `screenshots/${name}-390.png`, fullPage: true });
  await page.setViewportSize(size);
}

interface Options {
  /** the name of the `account` fixture's user */
  accountName: string;
  /** whether `signedIn` marks the first visit done (false lets the onboarding tour open) */
  firstVisitDone: boolean;
}

interface Fixtures {
  /** fails the test on any console error or uncaught page error */
  consoleGuard: undefined;
  /** a verified user of the test's own, registered on the test's server through the API */
  account: Account;
  /**
   * `account`, signed in by API, with the session in the page's storage before the test's first
   * navigation: the test starts as a returning user. `api` calls the API as that user.
   */
  signedIn: Account & ApiSession;
}

export const test = base.extend<Fixtures & Options>({
  accountName: ['Eve Tester', { option: true }],
  firstVisitDone: [true, { option: true }],
  consoleGuard: [
    async ({ page }, use) => {
      const errors = guardConsole(page);
      await use(undefined);
      expect(errors(), 'console errors during the test').toEqual([]);
    },
    { auto: true },
  ],
  account: async ({ accountName, baseURL }, use) => {
    await use(await createVerifiedUser({ name: accountName, baseUrl: baseURL ?? mainUrl }));
  },
  signedIn: async ({ account, context, firstVisitDone, baseURL }, use) => {
    const session = await signInByApi(context, account.email, account.password, {
      firstVisitDone,
      baseUrl: baseURL ?? mainUrl,
    });
    await use({ ...account, ...session });
  },
});

export { expect };

/** Chromium's virtual authenticator (the CDP WebAuthn domain): a platform passkey store that holds passkeys, verifies its user and answers without a person. */
export async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}
