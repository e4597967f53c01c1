import { readFileSync } from 'node:fs';
import type { Browser, Page, Request } from '@playwright/test';
import { createVerifiedUser as createVerifiedAccount } from '@portal/testing';
import { adminServer } from '../../../../playwright.config';
import { expect, PASSWORD, portal, uniqueEmail } from '../fixtures';

export { adminServer };

/**
 * The enrolment links `staff:add` printed before the admin server started (playwright.config.ts):
 * each run prints `<email>: <role> …; enrolment link (single use, until …):` and the link.
 */
export function printedLinks(): Record<string, string> {
  const lines = readFileSync(adminServer.staffFile, 'utf8').split('\n');
  const links: Record<string, string> = {};
  lines.forEach((line, i) => {
    const email = /^(\S+@\S+): (support|finance|admin)\b/.exec(line)?.[1];
    const link = lines[i + 1]?.trim();
    if (email && link?.startsWith('http')) links[email] = link;
  });
  return links;
}

export { virtualAuthenticator } from '../fixtures';

/** Opens an enrolment link, names the passkey and registers it: the console opens. */
export async function enrol(page: Page, link: string, passkeyName: string) {
  await page.goto(link);
  await page.getByLabel('Passkey name', { exact: true }).fill(passkeyName);
  await page.getByRole('button', { name: 'Register a passkey', exact: true }).click();
  await expect(page).toHaveURL(`${adminServer.url}/admin`);
}

/** A page of its own (a fresh browser profile) on the admin server, with the console guard of errors. */
export async function freshPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: adminServer.url });
  return context.newPage();
}

/** A verified customer with a password on the admin server. */
export function customerOnAdminServer(label: string) {
  return createVerifiedAccount(portal(adminServer.url), adminServer.dataDir, {
    email: uniqueEmail(label),
    name: 'Casey Customer',
    password: PASSWORD,
  });
}

/** The scripts a page fetched, by file name. */
export function scriptLog(page: Page): () => string[] {
  const scripts: string[] = [];
  page.on('request', (request: Request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname.split('/').pop() ?? '');
  });
  return () => scripts;
}

/** Admin code by chunk name (vite.config.ts): the console itself. */
export const isConsoleChunk = (file: string) => file.startsWith('admin-console-');

/** Presses Tab until `focused` says the wanted control has the focus (a keyboard user's way there). */
export async function tabTo(page: Page, focused: () => Promise<boolean>, most = 40) {
  for (let i = 0; i < most; i += 1) {
    if (await focused()) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`the control was not reached in ${most} presses of Tab`);
}

/** At a phone's width (390 px) the page does not scroll sideways: wide tables scroll in their own region. */
export async function expectNoSidewaysScroll(page: Page) {
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize(size);
}
