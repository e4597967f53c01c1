import { createClient, isClientError } from '@portal/client';
import { admin, useraction } from '@portal/contract';
import {
  expect,
  expectAccessible,
  guardConsole,
  linkIn,
  PASSWORD,
  portal,
  readMail,
  screenshots,
  signInByApi,
  signInThroughForm,
  test,
} from '../fixtures';
import {
  adminServer,
  customerOnAdminServer,
  enrol,
  expectNoSidewaysScroll,
  freshPage,
  isConsoleChunk,
  printedLinks,
  scriptLog,
  tabTo,
  virtualAuthenticator,
} from './admin-helpers';

/**
 * The back office end to end (issue 34, docs/decisions/073), on a server of its own whose staff the
 * command line made before it started (playwright.config.ts). WebAuthn takes no IP address, so that
 * server's address is localhost; Chromium's virtual authenticator holds the passkeys.
 */
test.use({ baseURL: adminServer.url });

const header = (page: import('@playwright/test').Page) => page.getByRole('banner');
const nav = (page: import('@playwright/test').Page) => page.getByRole('navigation', { name: 'Console' });

test('staff:add prints a link; the support member enrols a passkey with it, reaches /admin and signs in again with it; a password gets no console', async ({
  page,
  browser,
}) => {
  test.slow();
  const link = printedLinks()[adminServer.support];
  expect(link, 'staff:add printed an enrolment link').toMatch(/^http:\/\/localhost:\d+\/admin\/enrol\?token=[\w-]+$/);
  await virtualAuthenticator(page);

  // The link says who it is for and the role.
  await page.goto(link as string);
  await expect(page).toHaveTitle(/Join the back office/);
  await expect(page.getByTestId('enrol-email')).toHaveText(adminServer.support);
  await expect(page.getByTestId('enrol-role')).toHaveText('Support');
  await expectAccessible(page);
  await screenshots(page, 'admin-enrol');
  await expectNoSidewaysScroll(page);
  await enrol(page, link as string, 'Support laptop');

  // The frame: who, the role, and only the screens of the role.
  await expect(header(page).getByTestId('admin-staff-email')).toHaveText(adminServer.support);
  await expect(header(page).getByTestId('admin-staff-role')).toHaveText('Support');
  await expect(nav(page).getByRole('link')).toHaveText(['Overview', 'Support', 'Customers', 'Releases']);
  await expect(page.getByRole('heading', { name: 'Back office', level: 1 })).toBeVisible();
  // OPERATOR_TOKEN is set in the end-to-end environment: the frame warns.
  await expect(page.getByText(/^OPERATOR_TOKEN is set:/)).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, 'admin-overview-support');
  await expectNoSidewaysScroll(page);
  // A screen of another role leads back to the overview (the server would refuse its calls anyway).
  await page.goto('/admin/staff');
  await expect(page).toHaveURL(`${adminServer.url}/admin`);

  // The link is single-use.
  await page.goto(link as string);
  await expect(page.getByText('This link cannot be used')).toBeVisible();
  await expect(page.getByText(/Ask an admin for a new link/)).toBeVisible();

  // Sign out, then in with the passkey alone.
  await page.goto('/admin');
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(`${adminServer.url}/admin/sign-in`);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin\/sign-in\?redirect=/);
  await expect(page).toHaveTitle(/Staff sign-in/);
  await expectAccessible(page);
  await screenshots(page, 'admin-sign-in');
  await expectNoSidewaysScroll(page);
  await page.getByRole('button', { name: 'Sign in with a passkey', exact: true }).click();
  await expect(page).toHaveURL(`${adminServer.url}/admin`);
  await expect(header(page).getByTestId('admin-staff-role')).toHaveText('Support');

  // The same account with a password (set through the reset flow; staff:add made it unusable) gets
  // a customer session: /admin is the dashboard, and no console code is fetched.
  const api = portal(adminServer.url);
  const after = Date.now() - 1000;
  await api.call(useraction, 'UserForgotPassword', { user: { email: adminServer.support } });
  const reset = linkIn(
    await readMail(adminServer.support, { dataDir: adminServer.dataDir, subject: /\/auth\/password\/reset\//, after }),
    '/auth/password/reset/',
  );
  await api.call(useraction, 'UserChangePassword', {
    user: { email: adminServer.support },
    token: decodeURIComponent(reset.split('/').at(-1) as string),
    tokentype: 2,
    password: PASSWORD,
  });
  const withPassword = await freshPage(browser);
  const scripts = scriptLog(withPassword);
  await signInThroughForm(withPassword, adminServer.support, PASSWORD);
  await expect(withPassword).toHaveURL(/\/dashboard$/);
  await withPassword.goto('/admin');
  await expect(withPassword).toHaveURL(/\/dashboard$/);
  expect(scripts().filter(isConsoleChunk)).toEqual([]);
  await withPassword.context().close();
});

test('an admin invites a finance member and manages an API key (keyboard only); the finance member enrols, their password gets no console; the audit trail lists it all', async ({
  page,
  browser,
}) => {
  test.slow();
  // A customer with a password, whom the admin makes finance staff.
  const finance = await customerOnAdminServer('finance');
  await virtualAuthenticator(page);
  await enrol(page, printedLinks()[adminServer.admin] as string, 'Admin laptop');
  await expect(nav(page).getByRole('link')).toHaveText([
    'Overview',
    'Support',
    'Customers',
    'Staff',
    'API keys',
    'Audit trail',
    'Releases',
  ]);
  await screenshots(page, 'admin-overview-admin');
  await expectNoSidewaysScroll(page);

  await test.step('Staff: invite, the link shown and mailed', async () => {
    await nav(page).getByRole('link', { name: 'Staff' }).click();
    await expect(page).toHaveTitle(/Staff/);
    const table = page.getByRole('region', { name: 'Staff table' });
    await expect(table.getByRole('row', { name: new RegExp(adminServer.admin) })).toContainText('Admin');
    await page.getByLabel('Email', { exact: true }).fill(finance.email);
    await page.getByLabel('Role', { exact: true }).selectOption('finance');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const shown = page.getByRole('region', { name: 'Enrolment link' });
    await expect(shown).toContainText('The link was mailed to them');
    const link = await shown.getByRole('textbox', { name: 'Enrolment link' }).inputValue();
    expect(link).toMatch(/\/admin\/enrol\?token=/);
    expect(
      await readMail(finance.email, { dataDir: adminServer.dataDir, subject: /back office|staff|enrol/i }),
    ).toContain(link.split('token=')[1]);
    await expect(table.getByRole('row', { name: new RegExp(finance.email) })).toContainText('Finance');
    await expect(table.getByRole('row', { name: new RegExp(finance.email) })).toContainText(/Until \d{4}-/);
    await expectAccessible(page);
    await screenshots(page, 'admin-staff');
    await expectNoSidewaysScroll(page);

    // The finance member enrols from the link in a browser of their own.
    const theirs = await freshPage(browser);
    const errors = guardConsole(theirs);
    await virtualAuthenticator(theirs);
    await enrol(theirs, link, 'Finance phone');
    await expect(header(theirs).getByTestId('admin-staff-role')).toHaveText('Finance');
    expect(errors()).toEqual([]);
    await theirs.context().close();

    // The same account signing in with its password gets a customer session: /admin is the dashboard.
    const withPassword = await freshPage(browser);
    const scripts = scriptLog(withPassword);
    await signInThroughForm(withPassword, finance.email, PASSWORD);
    await expect(withPassword).toHaveURL(/\/dashboard$/);
    await withPassword.goto('/admin');
    await expect(withPassword).toHaveURL(/\/dashboard$/);
    expect(scripts().filter(isConsoleChunk)).toEqual([]);
    await withPassword.context().close();
  });

  let secret = '';
  await test.step('API keys, keyboard only: create (secret shown once), use, revoke', async () => {
    await page.goto('/admin/api-keys');
    await expect(page).toHaveTitle(/API keys/);
    const name = page.getByLabel('Name', { exact: true });
    await tabTo(page, () => name.evaluate((el) => el === document.activeElement));
    await page.keyboard.type('E2E script');
    await page.keyboard.press('Tab');
    // The role select has the focus: Support is its first option, chosen by the keyboard.
    await expect(page.getByLabel('Role', { exact: true })).toBeFocused();
    await page.keyboard.press('Home');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Create key', exact: true })).toBeFocused();
    await page.keyboard.press('Enter');
    const once = page.getByRole('region', { name: 'New API key' });
    await expect(once).toContainText('it is shown only once');
    secret = await once.getByRole('textbox', { name: 'Secret' }).inputValue();
    expect(secret.length).toBeGreaterThan(20);
    await expectAccessible(page);
    await screenshots(page, 'admin-api-keys');
    await expectNoSidewaysScroll(page);

    // The key works against /api/admin with x-operator-token, as a script would call it.
    const script = createClient({ baseUrl: adminServer.url, origin: adminServer.url, fetch, operatorToken: secret });
    const me = await script.call(admin, 'Me', {});
    expect([me.name, me.role]).toEqual(['E2E script', 'support']);

    const row = page.getByRole('region', { name: 'API keys table' }).getByRole('row', { name: /E2E script/ });
    await expect(row).toContainText('Active');
    const revoke = page.getByRole('button', { name: 'Revoke API key E2E script', exact: true });
    await tabTo(page, () => revoke.evaluate((el) => el === document.activeElement));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Revoke this API key?' });
    await expect(dialog).toBeVisible();
    const confirm = dialog.getByRole('button', { name: 'Revoke key', exact: true });
    await tabTo(page, () => confirm.evaluate((el) => el === document.activeElement), 5);
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(row).toContainText('Revoked');
    // Revoked: the key's next call is refused like any unknown credential.
    const refused = await script.call(admin, 'Me', {}).catch((err: unknown) => err);
    expect(isClientError(refused) && refused.status).toBe(404);
  });

  await test.step('Audit trail: these actions, filtered by action, exported', async () => {
    await nav(page).getByRole('link', { name: 'Audit trail' }).click();
    await expect(page).toHaveTitle(/Audit trail/);
    const entries = page.getByTestId('audit-entry');
    for (const action of ['staff.add', 'staff.enrol', 'api_key.create', 'api_key.revoke'])
      await expect(entries.filter({ hasText: action }).first()).toBeVisible();
    await expect(entries.filter({ hasText: 'api_key.create' }).first()).toContainText(adminServer.admin);
    await expectAccessible(page);
    await screenshots(page, 'admin-audit');
    await expectNoSidewaysScroll(page);

    await page.getByLabel('Action', { exact: true }).fill('api_key.');
    await page.getByRole('button', { name: 'Apply filters', exact: true }).click();
    await expect(page).toHaveURL(/[?&]action=api_key\./);
    await expect(entries.filter({ hasText: 'api_key.revoke' })).toHaveCount(1);
    await expect(entries.filter({ hasText: 'staff.' })).toHaveCount(0);
    // Newest first: the revocation before the creation.
    await expect(entries.first()).toContainText('api_key.revoke');
    // The filter lives in the address: a reload keeps it.
    await page.reload();
    await expect(page.getByLabel('Action', { exact: true })).toHaveValue('api_key.');
    await expect(entries.filter({ hasText: 'staff.' })).toHaveCount(0);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV', exact: true }).click();
    expect((await download).suggestedFilename()).toMatch(/\.csv$/);
  });
});

test('a customer opening /admin lands on /dashboard without fetching any console code; signed out, /admin asks for a passkey', async ({
  page,
  browser,
}) => {
  const customer = await customerOnAdminServer('customer');
  const scripts = scriptLog(page);
  await signInByApi(page, customer.email, PASSWORD, { baseUrl: adminServer.url });
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('navigation', { name: 'Console' })).toHaveCount(0);
  // In-app navigation too (the router's own, no page load): the guard answers before any console code.
  await page.evaluate(() => {
    window.history.pushState({}, '', '/admin/audit');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page).toHaveURL(/\/dashboard$/);
  // What the customer fetched of the back office: the guard's call, and nothing of the console.
  expect(scripts().some((file) => file.startsWith('staff-check-'))).toBe(true);
  expect(scripts().length).toBeGreaterThan(0);
  expect(scripts().filter(isConsoleChunk)).toEqual([]);

  const signedOut = await freshPage(browser);
  await signedOut.goto('/admin/api-keys');
  await expect(signedOut).toHaveURL(/\/admin\/sign-in\?redirect=%2Fadmin%2Fapi-keys$/);
  await signedOut.context().close();
});
