import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, test as base, expect, type Page } from '@playwright/test';

export const PASSWORD = 'E2e-Robot-Pass-1!';
export const dataDir = () => process.env.E2E_DATA_DIR as string;

export function uniqueEmail(label = 'e2e'): string {
  return `${label}-${randomUUID().slice(0, 12)}@example.test`;
}

/** Calls an action over HTTP the way the web client does (CSRF first). */
export async function api(request: APIRequestContext, path: string, body: Record<string, unknown>, bearer?: string) {
  const csrf = (await request.get('/api/useraction')).headers()['x-csrf-token'] ?? '';
  const res = await request.post(path, {
    data: body,
    headers: { 'x-csrf-token': csrf, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
  });
  return { status: res.status(), body: (await res.json()) as Record<string, any> };
}

/** Undoes quoted-printable soft breaks and escapes, as nodemailer writes long lines. */
function decodeQuotedPrintable(s: string): string {
  return s
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** The newest mail written to the outbox for an address, waiting for it to arrive. */
export async function readMail(
  email: string,
  opts: { subject?: RegExp; after?: number; dataDir?: string } = {},
): Promise<string> {
  const outbox = join(opts.dataDir ?? dataDir(), 'outbox');
  const safe = email.replace(/[^a-z0-9@._-]/gi, '_');
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const files = (await readdir(outbox).catch(() => [] as string[]))
      .filter((f) => f.includes(safe) && Number(f.split('-')[0]) >= (opts.after ?? 0))
      .sort();
    for (const f of files.reverse()) {
      const text = decodeQuotedPrintable(await readFile(join(outbox, f), 'utf8'));
      if (!opts.subject || opts.subject.test(text)) return text;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail for ${email} in ${outbox}`);
}

export function linkIn(mail: string, path: string): string {
  const match = new RegExp(`https?://[^\\s"<>]+${path.replace(/\//g, '\\/')}[^\\s"<>]+`).exec(mail);
  if (!match) throw new Error(`no ${path} link in mail`);
  return match[0];
}

/** Registers through the API, opens the emailed verification link, and answers the credentials. */
/** `dataDir`: the data folder of the server `request` talks to, when it is not the main one. */
export async function createVerifiedUser(
  request: APIRequestContext,
  opts: { name?: string; email?: string; dataDir?: string } = {},
) {
  const email = opts.email ?? uniqueEmail();
  const reg = await api(request, '/api/useraction', {
    action: 'UserRegister',
    user: {
      email,
      password: PASSWORD,
      name: opts.name ?? 'Eve Tester',
      year_born: 1990,
      country: 'United Kingdom',
      company: 'Test Robotics',
      marketing: false,
      termsagreed: true,
    },
  });
  expect(reg.status).toBe(200);
  const token = decodeURIComponent(
    linkIn(await readMail(email, { dataDir: opts.dataDir }), '/auth/verify/')
      .split('/')
      .at(-1) as string,
  );
  const verified = await api(request, '/api/useraction', { action: 'UserVerifyEmail', token });
  expect(verified.status).toBe(200);
  return { email, password: PASSWORD, name: opts.name ?? 'Eve Tester' };
}

/** Signs in through the real sign-in form. */
export async function signInThroughForm(page: Page, email: string, password: string, path = '/auth/login') {
  await page.goto(path);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in to Portal' }).click();
}

/** Signs in over the API with token pairs, failing the test unless the login succeeds. */
export async function loginByApi(request: APIRequestContext, email: string, password: string) {
  const res = await api(request, '/api/useraction', {
    action: 'login',
    user: { email, password },
    use_token_pairs: true,
  });
  expect(res.status).toBe(200);
  const { token_pair: pair, user } = res.body;
  return { pair, user };
}

/**
 * Signs in by API and puts the session where the web app keeps it, to start a test on a signed-in page.
 * The first visit is marked completed unless `firstVisitDone` is false, which lets the onboarding tour open.
 */
export async function signInByApi(page: Page, email: string, password: string, { firstVisitDone = true } = {}) {
  const { pair, user } = await loginByApi(page.request, email, password);
  await page.addInitScript(
    ([a, r, e, id, done]) => {
      if (!localStorage.getItem('refresh_token')) {
        localStorage.setItem('access_token', a);
        localStorage.setItem('refresh_token', r);
        localStorage.setItem('user_email', e);
        localStorage.setItem('user_id', id);
        if (done) localStorage.setItem('hasCompletedFirstVisit', 'true');
      }
    },
    [pair.access_token, pair.refresh_token, user.email, user.user_id, firstVisitDone] as const,
  );
  return { pair, user };
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

/** axe on the current page: no serious or critical violation. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

/** Screenshots at desktop and phone widths into screenshots/ for a person to look at. */
export async function screenshots(page: Page, name: string) {
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `screenshots/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `screenshots/${name}-390.png`, fullPage: true });
  await page.setViewportSize(size);
}

interface Fixtures {
  /** fails the test on any console error or uncaught page error */
  consoleGuard: void;
}

export const test = base.extend<Fixtures>({
  consoleGuard: [
    async ({ page }, use) => {
      const errors = guardConsole(page);
      await use();
      expect(errors(), 'console errors during the test').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
