import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { createClient } from '@portal/client';
import {
  type AdminOverviewAnswer,
  admin,
  adminReleases,
  OPERATOR_HEADER,
  RELEASE_UPLOAD_PATH,
  type StaffRole,
  support,
} from '@portal/contract';
import {
  expect,
  expectAccessible,
  loginByApi,
  PASSWORD,
  screenshots,
  signInByApi,
  test,
  uniqueEmail,
} from '../fixtures';
import {
  adminServer,
  customerOnAdminServer,
  enrol,
  expectNoSidewaysScroll,
  virtualAuthenticator,
} from './admin-helpers';

/**
 * Releases and the overview in the console (issue 35 items 6 and 7, docs/decisions/076), on the back
 * office's server. Staff of their own are invited with the server's OPERATOR_TOKEN (the key "legacy",
 * an admin), as a script would, so this spec does not spend the links staff:add printed for
 * admin-console.spec.ts; each enrols a passkey in Chromium's virtual authenticator.
 */
test.use({ baseURL: adminServer.url });

const BUILD = 'apps/web/e2e/robots/robot-hub-linux.deb';

/** The server's OPERATOR_TOKEN as a script's client. */
function legacyKey() {
  const token = process.env.OPERATOR_TOKEN;
  expect(token, 'OPERATOR_TOKEN must be set for the end-to-end server').toBeTruthy();
  return createClient({
    baseUrl: adminServer.url,
    origin: adminServer.url,
    fetch: globalThis.fetch,
    operatorToken: token as string,
  });
}

/** A new staff member of `role`, enrolled with a passkey in `page`: the console's overview is open. */
async function enrolledStaff(page: Page, role: StaffRole) {
  const email = uniqueEmail(`releases-${role}`);
  const { link } = await legacyKey().call(admin, 'InviteStaff', { email, role });
  await virtualAuthenticator(page);
  await enrol(page, link, `${role} laptop`);
  return email;
}

type Linux = 'deb' | 'rpm';

/**
 * A Linux version above every one the server has for that package: `major` one more than the
 * highest. Each test here uploads to a package of its own, so the two never race for a version.
 */
async function nextLinuxMajor(arch: Linux): Promise<number> {
  const { platforms } = await legacyKey().call(adminReleases, 'ListReleases', {});
  const builds = platforms.find((p) => p.os === 'linux' && p.arch === arch)?.builds ?? [];
  return Math.max(0, ...builds.map((b) => Number(b.version.split('.')[0]))) + 1;
}

/** An upload as a script makes it: the bytes as the body, the API key, a CSRF token. */
async function uploadByKey(arch: Linux, version: string) {
  const client = legacyKey();
  const query = new URLSearchParams({ os: 'linux', arch, version, file_name: `robot-hub-${version}.${arch}` });
  const res = await fetch(`${adminServer.url}${RELEASE_UPLOAD_PATH}?${query}`, {
    method: 'POST',
    headers: {
      origin: adminServer.url,
      'x-csrf-token': await client.csrf(),
      [OPERATOR_HEADER]: process.env.OPERATOR_TOKEN as string,
      'content-type': 'application/octet-stream',
    },
    body: await readFile(BUILD),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

const linuxSection = (page: Page) => page.getByTestId('releases-linux/deb');
const offeredText = (page: Page) => linuxSection(page).getByTestId('release-offered');

/** The version the customer's Downloads page offers for Linux (DEB). */
async function offeredToCustomer(page: Page): Promise<Locator> {
  await page.goto('/dashboard/downloads');
  await page.getByTestId('os-card-linux').click();
  await expect(page.getByRole('button', { name: /^Download for Linux \(DEB\)/ })).toBeVisible();
  return page.locator('dt', { hasText: /^Version$/ }).locator('xpath=following-sibling::dd');
}

/** GetOverview's answer to the page's next call (the screen must show these figures). */
function nextOverview(page: Page): Promise<AdminOverviewAnswer> {
  return page
    .waitForResponse((r) => r.url().endsWith('/api/admin/overview') && r.request().method() === 'POST')
    .then((r) => r.json() as Promise<AdminOverviewAnswer>);
}

test('an admin reads the overview, uploads a hub build that Downloads then offers, and withdraws it: Downloads offers the one before', async ({
  page,
  browser,
}) => {
  test.slow();
  const customer = await customerOnAdminServer('downloads');
  const major = await nextLinuxMajor('deb');
  const previous = `${major}.0.0.0`;
  const next = `${major}.1.0.0`;
  await uploadByKey('deb', previous);

  // The overview: the figures the server answered, and a refresh after the customer writes to support.
  const first = nextOverview(page);
  await enrolledStaff(page, 'admin');
  const figures = await first;
  await expect(page.getByTestId('overview-accounts')).toContainText(figures.accounts.total.toLocaleString('en-GB'));
  await expect(page.getByTestId('overview-support')).toContainText(
    `Open support requests${figures.support_open.total.toLocaleString('en-GB')}`,
  );
  expect(figures.revenue_visible).toBe(true);
  const session = await loginByApi(customer.email, PASSWORD, adminServer.url);
  await session.api.call(support, 'SubmitSupportRequest', {
    email: customer.email,
    category: 'technical',
    subject: 'Which hub build should I use?',
    message: 'The Downloads page offers one build; is it the right one for my robot?',
  });
  const refreshed = nextOverview(page);
  await page.getByRole('button', { name: 'Refresh', exact: true }).click();
  const after = await refreshed;
  expect(after.support_open.total).toBeGreaterThanOrEqual(figures.support_open.total + 1);
  await expect(page.getByTestId('overview-support')).toContainText(
    `Open support requests${after.support_open.total.toLocaleString('en-GB')}`,
  );
  await expectAccessible(page);
  await screenshots(page, 'admin-overview-figures');
  await expectNoSidewaysScroll(page);

  // Releases: the build the script uploaded is offered.
  const nav = page.getByRole('navigation', { name: 'Console' });
  await nav.getByRole('link', { name: 'Releases', exact: true }).click();
  await expect(page).toHaveTitle(/Releases/);
  await expect(page.getByRole('heading', { name: 'Releases', level: 1 })).toBeVisible();
  await expect(offeredText(page)).toHaveText(`Customers are offered ${previous}`);

  const form = page.getByRole('form', { name: 'Upload a build' });
  await form.getByLabel('Build file').setInputFiles(BUILD);
  await form.getByLabel('Platform').selectOption('linux/deb');
  // The form's own check, then the server's: a version the platform has is refused under Version.
  await form.getByLabel('Version').fill(`${major}.1`);
  await form.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(form.getByText(/^Version must be major\.minor\.patch\.revision/)).toBeVisible();
  await form.getByLabel('Version').fill(previous);
  await form.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(form.getByLabel('Version')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#release-version-error')).toContainText(previous);

  await form.getByLabel('Version').fill(next);
  await form.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('Build uploaded')).toBeVisible();
  await expect(offeredText(page)).toHaveText(`Customers are offered ${next}`);
  const rows = page.getByRole('region', { name: 'Linux (DEB) builds' }).getByRole('row');
  await expect(rows.nth(1)).toContainText(next);
  await expect(rows.nth(1)).toContainText('Offered');
  await expect(rows.nth(2)).toContainText(previous);
  await expect(rows.nth(2)).toContainText('Not offered');
  await expectAccessible(page);
  await screenshots(page, 'admin-releases');
  await expectNoSidewaysScroll(page);

  // The customer's Downloads offers the new build.
  const customerContext = await browser.newContext({ baseURL: adminServer.url });
  const customerPage = await customerContext.newPage();
  await signInByApi(customerContext, customer.email, PASSWORD, { baseUrl: adminServer.url });
  await expect(await offeredToCustomer(customerPage)).toHaveText(next);

  // Withdrawn with a reason: the list marks it, and Downloads offers the one before again.
  // By keyboard: the row's button opens the dialog, whose reason field takes the focus first.
  await page.getByRole('button', { name: `Withdraw Linux (DEB) ${next}`, exact: true }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Withdraw this build?' });
  await dialog.getByRole('button', { name: 'Withdraw build', exact: true }).click();
  await expect(dialog.getByText('Reason is required')).toBeVisible();
  await dialog.getByLabel('Reason').fill('The hub crashes on start on Ubuntu 18.04');
  await expectAccessible(page);
  await screenshots(page, 'admin-releases-withdraw');
  await dialog.getByRole('button', { name: 'Withdraw build', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(offeredText(page)).toHaveText(`Customers are offered ${previous}`);
  await expect(rows.nth(1)).toContainText(/Withdrawn \d{4}-/);
  await expect(rows.nth(1)).toContainText('Reason: The hub crashes on start on Ubuntu 18.04');
  await expect(await offeredToCustomer(customerPage)).toHaveText(previous);
  await customerContext.close();
});

test('a support member reads the overview without revenue and the releases without upload, withdraw or restore', async ({
  page,
}) => {
  test.slow();
  await uploadByKey('rpm', `${await nextLinuxMajor('rpm')}.0.0.0`);
  const answered = nextOverview(page);
  await enrolledStaff(page, 'support');
  const figures = await answered;
  expect(figures.revenue_visible).toBe(false);
  expect(figures.recurring_revenue).toBeUndefined();
  await expect(page.getByTestId('overview-revenue')).toContainText(
    'Recurring revenue is shown to finance and admin roles only.',
  );
  await expect(page.getByTestId('overview-revenue')).not.toContainText(/[£$€]/);
  await expect(page.getByTestId('overview-accounts')).toContainText(figures.accounts.total.toLocaleString('en-GB'));
  await expectAccessible(page);
  await screenshots(page, 'admin-overview-figures-support');

  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Releases', exact: true }).click();
  await expect(page).toHaveTitle(/Releases/);
  await expect(page.getByRole('region', { name: 'Linux (RPM) builds' }).getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByRole('form', { name: 'Upload a build' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^(Withdraw|Restore) / })).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, 'admin-releases-support');
  await expectNoSidewaysScroll(page);

  // The server refuses support an upload whatever the screen shows (a 403 naming the role).
  const refused = await page.evaluate(async (path) => {
    const csrf = (await fetch('/api/useraction')).headers.get('x-csrf-token') ?? '';
    const token = localStorage.getItem('access_token') ?? sessionStorage.getItem('access_token') ?? '';
    const res = await fetch(`${path}?os=linux&arch=deb&version=9.9.9.9&file_name=x.deb`, {
      method: 'POST',
      headers: { 'x-csrf-token': csrf, authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body: 'bytes',
    });
    return res.status;
  }, RELEASE_UPLOAD_PATH);
  expect(refused).toBe(403);
});
