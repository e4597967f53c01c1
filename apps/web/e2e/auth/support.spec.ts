import { expect, expectAccessible, readMail, screenshots, test } from '../fixtures';

/** /dashboard/support: a real contact form, stored server-side and confirmed with a ticket id. */

test('a support request is sent and confirmed with a ticket id', async ({ page, signedIn: user }) => {
  await page.goto('/dashboard/support');
  await expect(page.getByRole('heading', { name: 'Contact Support', exact: true })).toBeVisible();
  await expect(page.getByRole('main').getByText(user.email)).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, 'support');

  // The rules first: nothing is sent while the form is invalid.
  await page.getByRole('button', { name: 'Send request', exact: true }).click();
  await expect(page.getByLabel('Subject', { exact: true })).toHaveAccessibleDescription(
    'Subject must be at least 3 characters',
  );
  await expect(page.getByLabel('Message', { exact: true })).toHaveAccessibleDescription(
    'Message must be at least 10 characters',
  );

  await page.getByLabel('Topic', { exact: true }).selectOption({ label: 'Technical problem' });
  await page.getByLabel('Robot model (optional)', { exact: true }).fill('Unitree Go2');
  await page.getByLabel('Subject', { exact: true }).fill('Robot does not pair');
  await page
    .getByLabel('Message', { exact: true })
    .fill('The pairing code is accepted but the robot stays unpaired in the dashboard.');
  await page.getByRole('button', { name: 'Send request', exact: true }).click();

  await expect(page.getByText('Request sent', { exact: true })).toBeVisible();
  const status = page.getByRole('status').filter({ hasText: 'Your ticket id' });
  await expect(status).toBeVisible();
  const ticketId = /Your ticket id\s+(\S+)/.exec(await status.innerText())?.[1] ?? '';
  expect(ticketId).toMatch(/\w{4,}/);
  await expectAccessible(page);
  await screenshots(page, 'support-sent');

  // Stored server-side: the acknowledgement mail quotes the same ticket.
  const mail = await readMail(user.email, { subject: /support request received/ });
  expect(mail).toContain(ticketId);
  expect(mail).toContain('Robot does not pair');

  // Another request starts from an empty form.
  await page.getByRole('button', { name: 'Send another request', exact: true }).click();
  await expect(page.getByLabel('Subject', { exact: true })).toHaveValue('');
});

test('"Get Help" links fill the topic and the subject', async ({ page, signedIn: _signedIn }) => {
  await page.goto('/dashboard/support?topic=robot_not_listed&model=Spot%20Mini');
  await expect(page.getByLabel('Topic', { exact: true })).toHaveValue('robot_not_listed');
  await expect(page.getByLabel('Subject', { exact: true })).toHaveValue('Robot not listed: Spot Mini');
  await expect(page.getByLabel('Robot model (optional)', { exact: true })).toHaveValue('Spot Mini');
});
