import {
  createVerifiedUser,
  expect,
  expectAccessible,
  guardConsole,
  readMail,
  screenshots,
  signInByApi,
  test,
  uniqueEmail,
} from '../fixtures';
import { grid } from '../robots/robots-helpers';
import { openManagePage, pairedRobot, shareSection, shareWith } from './sharing-helpers';

/**
 * Sharing a robot from its manage page (issue 12 item 5, docs/decisions/023), with two accounts of
 * the test's own: the owner (the `signedIn` fixture) and a colleague registered through the API.
 */
test.use({ accountName: 'Owen Owner' });

const SHARED_MAIL = /shared a robot with you/;

test('share a robot with a second user, who sees it under SHARED ROBOTS (not clickable), then stop the share and it is gone from their page', async ({
  page,
  browser,
  signedIn: owner,
}) => {
  test.slow();
  const robotId = await pairedRobot(owner, 'Lab Nao');
  const colleague = await createVerifiedUser({ name: 'Cora Colleague' });

  await openManagePage(page, robotId, 'Lab Nao');
  const section = shareSection(page);
  await expect(section.getByText('This robot is not shared with anyone.')).toBeVisible();
  await shareWith(page, colleague.email.toUpperCase(), '30 days');
  await expect(page.getByText(`Robot shared with ${colleague.email}`)).toBeVisible();
  const entry = section.getByTestId('share-entry');
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText(colleague.email);
  await expect(entry).toContainText(/Until \w{3} \d{2}:\d{2} \d{2}\/\d{2}\/\d{4}/);
  await expect(section.getByLabel('Recipient email')).toHaveValue('');
  await expectAccessible(page);
  await screenshots(page, 'sharing-manage-shared');

  // The colleague is mailed, with a link to the dashboard, where the robot is shared and read-only.
  const mail = await readMail(colleague.email, { subject: SHARED_MAIL });
  expect(mail).toContain(`${owner.email} shared their Nao robot with you until`);
  expect(mail).toMatch(/^Open the Robot Manager: http\S+\/dashboard$/m);

  // A context of its own (axe needs one): the colleague's session does not touch the owner's.
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  const otherErrors = guardConsole(other);
  await signInByApi(other, colleague.email, colleague.password);
  await other.goto('/dashboard');
  const shared = grid(other, 'SHARED ROBOTS');
  await expect(shared.getByRole('heading', { level: 2 })).toHaveText('SHARED ROBOTS (1)');
  await expect(shared.getByTestId('robot-card')).toContainText('Lab Nao');
  await expect(shared.getByRole('link')).toHaveCount(0);
  await expectAccessible(other);
  await screenshots(other, 'sharing-recipient-dashboard');

  // Stopping needs a confirmation; Cancel keeps the share.
  await section.getByRole('button', { name: `Stop sharing with ${colleague.email}` }).click();
  const dialog = page.getByRole('dialog', { name: `Stop sharing with ${colleague.email}?` });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, 'sharing-stop-dialog');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(entry).toHaveCount(1);

  await section.getByRole('button', { name: `Stop sharing with ${colleague.email}` }).click();
  await dialog.getByRole('button', { name: 'Stop sharing' }).click();
  await expect(page.getByText(`Stopped sharing with ${colleague.email}`)).toBeVisible();
  await expect(section.getByText('This robot is not shared with anyone.')).toBeVisible();
  await expect(entry).toHaveCount(0);

  // Gone from the colleague's page: with nothing of their own either, they get the welcome card.
  await other.reload();
  await expect(other.getByText('Download the Hub')).toBeVisible();
  await expect(grid(other, 'SHARED ROBOTS')).toHaveCount(0);
  await expect(other.getByText('Lab Nao')).toHaveCount(0);
  expect(otherErrors()).toEqual([]);
  await otherContext.close();
});

test('an address without an account is invited, and sees the robot once it has signed up', async ({
  page,
  browser,
  signedIn: owner,
}) => {
  test.slow();
  const robotId = await pairedRobot(owner, 'Demo Nao');
  const invitee = uniqueEmail('invitee');

  await openManagePage(page, robotId, 'Demo Nao');
  await shareWith(page, invitee, '1 day');
  // The owner sees what they see for anyone: the toast and the share in the list.
  await expect(page.getByText(`Robot shared with ${invitee}`)).toBeVisible();
  await expect(shareSection(page).getByTestId('share-entry')).toContainText(invitee);

  const invitation = await readMail(invitee, { subject: SHARED_MAIL });
  expect(invitation).toContain('create a Robot Portal account with this email address');
  expect(invitation).toMatch(/^Create my account: http\S+\/auth\/signup$/m);

  const newcomer = await createVerifiedUser({ email: invitee, name: 'Ivy Invitee' });
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  const otherErrors = guardConsole(other);
  await signInByApi(other, newcomer.email, newcomer.password);
  await other.goto('/dashboard');
  const shared = grid(other, 'SHARED ROBOTS');
  await expect(shared.getByRole('heading', { level: 2 })).toHaveText('SHARED ROBOTS (1)');
  await expect(shared.getByTestId('robot-card')).toContainText('Demo Nao');
  expect(otherErrors()).toEqual([]);
  await otherContext.close();
});

test('sharing with yourself or twice with the same person is refused on the form, and a date can end the share', async ({
  page,
  signedIn: owner,
}) => {
  const robotId = await pairedRobot(owner, 'Desk Nao');
  const colleague = uniqueEmail('colleague');
  await openManagePage(page, robotId, 'Desk Nao');
  const section = shareSection(page);
  const recipient = section.getByLabel('Recipient email');

  await shareWith(page, owner.email);
  await expect(page.getByText('Failed to share robot')).toBeVisible();
  await expect(recipient).toHaveAttribute('aria-invalid', 'true');
  await expect(section.getByText('You cannot share a robot with yourself')).toBeVisible();
  await expect(section.getByText('This robot is not shared with anyone.')).toBeVisible();

  // Until a chosen day: the last day the date input offers is accepted.
  await recipient.fill(colleague);
  await section.getByLabel('Share for').selectOption({ label: 'Until a date' });
  const until = section.getByLabel('Last day of the share');
  const latest = await until.getAttribute('max');
  expect(latest).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  await until.fill(latest as string);
  await section.getByRole('button', { name: 'Share robot' }).click();
  await expect(page.getByText(`Robot shared with ${colleague}`)).toBeVisible();
  const [year, month, day] = (latest as string).split('-');
  await expect(section.getByTestId('share-entry')).toContainText(`${day}/${month}/${year}`);

  await shareWith(page, colleague, '7 days');
  await expect(
    section.getByText('This robot is already shared with this address. Stop that share first to change it.'),
  ).toBeVisible();
  await expect(section.getByTestId('share-entry')).toHaveCount(1);
  await expectAccessible(page);
  await screenshots(page, 'sharing-manage-refused');
});
