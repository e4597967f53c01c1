import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { createClient } from '@portal/client';
import { adminSupport, type DataExport, OPERATOR_HEADER } from '@portal/contract';
import { expect, expectAccessible, portal, readMail, screenshots, test } from '../fixtures';

/**
 * Support requests answered in the portal, and the customer's data export (issue 35, first part).
 * The staff reply is made over the API with the server's OPERATOR_TOKEN (the key "legacy", an admin),
 * as automation would; the console's screen for it comes later.
 */

const requests = (page: Page) => page.getByRole('list', { name: 'Your support requests' });
const requestButton = (page: Page, subject: string) =>
  requests(page).getByRole('button', { name: new RegExp(subject) });

/** A staff reply through /api/admin/support, with the operator credential. */
async function staffReply(ticketId: string, message: string) {
  const token = process.env.OPERATOR_TOKEN;
  expect(token, 'OPERATOR_TOKEN must be set for the end-to-end server').toBeTruthy();
  const base = portal();
  const client = createClient({ baseUrl: base.baseUrl, origin: base.baseUrl, fetch: globalThis.fetch });
  const answer = await client.send(
    adminSupport.path,
    { action: 'ReplySupportRequest', ticket_id: ticketId, message },
    { headers: { [OPERATOR_HEADER]: token as string } },
  );
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
}

test('a customer sends a request, reads the staff reply in its thread, and answering reopens it', async ({
  page,
  signedIn: user,
}) => {
  await page.goto('/dashboard/support');
  await expect(page.getByRole('heading', { name: 'Contact Support', level: 1 })).toBeVisible();
  await expect(page.getByText('You have not sent a support request yet.')).toBeVisible();

  // The contact form, as before.
  await page.getByLabel('Topic').selectOption('technical');
  await page.getByLabel('Subject').fill('Pepper stalls after ten minutes');
  await page.getByLabel('Message').fill('My Pepper stops answering after about ten minutes of dialling.');
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByRole('heading', { name: 'Request sent' })).toBeVisible();
  const ticketId = (
    await page.getByRole('status').filter({ hasText: 'Your ticket id' }).locator('.font-mono').innerText()
  ).trim();
  expect(ticketId).toMatch(/^SR-[A-Z2-9]{4}-[A-Z2-9]{4}$/);

  // It heads "Your requests", received.
  const mine = requestButton(page, 'Pepper stalls after ten minutes');
  await expect(mine).toContainText(ticketId);
  await expect(mine).toContainText('Received');
  await expectAccessible(page);

  // Support answers; the customer is mailed, and the reply is in the thread.
  await staffReply(ticketId, 'Please update the hub to 1.4 and tell us whether it still stalls.');
  const mail = await readMail(user.email, { subject: new RegExp(`\\[${ticketId}\\] Reply to your`) });
  expect(mail).toContain('/dashboard/support');
  await page.goto(`/dashboard/support?ticket=${ticketId}`);
  await expect(mine).toContainText('Answered');
  const thread = page.getByRole('list', { name: `Messages of ${ticketId}` });
  await expect(thread.getByRole('listitem')).toHaveCount(2);
  await expect(thread.getByRole('listitem').last()).toContainText('Support team');
  await expect(thread.getByRole('listitem').last()).toContainText('Please update the hub to 1.4');
  await expectAccessible(page);
  await screenshots(page, 'support-thread');

  // The customer answers: the request is open again.
  await page.getByLabel('Your answer').fill('Updated to 1.4: it has not stalled since. Thank you!');
  await page.getByRole('button', { name: 'Send answer' }).click();
  await expect(page.getByText('Answer sent. The request is open again.')).toBeVisible();
  await expect(thread.getByRole('listitem')).toHaveCount(3);
  await expect(thread.getByRole('listitem').last()).toContainText('Updated to 1.4');
  await expect(mine).toContainText('Open');
  await page.reload();
  await expect(requestButton(page, 'Pepper stalls after ten minutes')).toContainText('Open');
});

test('a customer downloads their data from the profile page', async ({ page, signedIn: user }) => {
  await page.goto('/dashboard/user/profile');
  await expect(page.getByRole('heading', { name: 'Your data' })).toBeVisible();
  await expectAccessible(page);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download my data' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^robot-portal-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(await readFile((await file.path()) as string, 'utf8')) as DataExport;
  expect(data.format_version).toBe(1);
  expect(data.account).toMatchObject({ email: user.email, name: user.name });
  expect(Object.keys(data).sort()).toEqual(
    [
      'account',
      'dial_time',
      'exported_at',
      'format_version',
      'licenses',
      'payments',
      'robots',
      'security_events',
      'subscriptions',
      'support_requests',
    ].sort(),
  );
  expect(data.security_events.map((e) => e.action)).toContain('auth.sign_in');
  await screenshots(page, 'profile-data-export');
});
