import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { type Asset, AssetType, compareVersions } from '@portal/contract';
import { expect, expectAccessible, screenshots, test } from '../fixtures';
import { cutOffServer, loadShell, openFromSidebar } from './robots-helpers';

/** Downloads against the demo hub builds the server seeds (one per platform). */

// Every test here starts signed in, as a user of its own.
test.beforeEach(async ({ signedIn: _signedIn }) => {});

test('choose a system, accept the license, and get a file whose bytes match its checksum', async ({ page }) => {
  const answered = page.waitForResponse(
    (r) => r.url().endsWith('/api/assets') && r.request().postDataJSON()?.action === 'GetAll',
  );
  await page.goto('/dashboard/downloads');
  const { assets } = (await (await answered).json()) as { assets: Asset[] };
  await expect(page.getByRole('heading', { level: 1, name: 'Downloads' })).toBeVisible();
  await expect(page.locator('h1')).toHaveCount(1);
  await expect(page.getByRole('link', { name: /Quickstart guide/ })).toHaveAttribute('href', /quickstart/);

  // One card per system, as a radio group; the detected system's card is badged and chosen.
  const systems = page.getByRole('radiogroup', { name: 'Choose your operating system' });
  await expect(systems.getByRole('radio')).toHaveCount(3);
  const detected = page.locator('[data-testid^="os-card-"]').filter({ hasText: 'Detected' });
  await expect(detected).toHaveCount(1);
  await expect(detected.getByRole('radio')).toBeChecked();

  // Keyboard: arrow keys move between systems (held as a person would: the radio group checks the
  // item that takes focus while an arrow key is down, so the key is let go once it is checked).
  await systems.getByRole('radio', { name: /Windows/ }).click();
  await page.keyboard.down('ArrowRight');
  await expect(systems.getByRole('radio', { name: /macOS/ })).toBeChecked();
  await page.keyboard.up('ArrowRight');
  await expect(page.getByRole('radiogroup', { name: 'Package' }).getByRole('radio')).toHaveCount(2);

  // Linux: the newest DEB build is offered (the demo data also has an older one).
  await page.getByTestId('os-card-linux').click();
  await expect(systems.getByRole('radio', { name: /Linux/ })).toBeChecked();
  const packages = page.getByRole('radiogroup', { name: 'Package' });
  await expect(packages.getByRole('radio', { name: /Linux \(DEB\)/ })).toBeChecked();
  const debs = hubOnly(assets).flatMap((a) => a.artifacts.filter((f) => f.OS === 'linux' && f.Arch === 'deb'));
  expect(debs.length).toBeGreaterThan(1);
  const newest = debs.map((f) => f.version_info.sdk).sort((a, b) => compareVersions(b, a))[0];
  // The spec's version format, major.minor.patch.revision, written out rather than taken from the screen's code.
  await expect(page.locator('dt', { hasText: /^Version$/ }).locator('xpath=following-sibling::dd')).toHaveText(
    `${newest!.major}.${newest!.minor}.${newest!.patch}.${newest!.revision}`,
  );

  await expectAccessible(page);
  await screenshots(page, 'downloads');

  // The license dialog: Download Now is disabled until the box is ticked, and the tick is
  // forgotten when the dialog closes.
  await page.getByRole('button', { name: /^Download for / }).click();
  const dialog = page.getByRole('dialog', { name: 'License agreement' });
  const agree = dialog.getByRole('checkbox', { name: /I have read and agree/ });
  const downloadNow = dialog.getByRole('button', { name: 'Download Now' });
  await expect(dialog.getByRole('region', { name: 'License text' })).toContainText('England and Wales');
  await expect(downloadNow).toBeDisabled();
  await agree.check();
  await expect(downloadNow).toBeEnabled();
  await expectAccessible(page);
  await screenshots(page, 'downloads-license');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: /^Download for / }).click();
  await expect(agree).not.toBeChecked();
  await expect(downloadNow).toBeDisabled();

  await agree.check();
  const checksum = ((await page.getByTestId('artifact-checksum').textContent()) ?? '').trim();
  const downloading = page.waitForEvent('download');
  await downloadNow.click();
  const download = await downloading;
  const bytes = await readFile((await download.path()) as string);
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(checksum);
  expect(download.suggestedFilename()).toMatch(/deb/);

  await expect(dialog).toBeHidden();
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Your download has started' });
  await expect(toast).toBeVisible();
  await expect(toast.getByRole('link', { name: 'quickstart guide' })).toHaveAttribute('href', /quickstart/);
});

const hubOnly = (assets: Asset[]) => assets.filter((a) => a.type === AssetType.Application);

/*
 * The empty messages (no downloads, no artifacts, nothing compatible, nothing for a system) need data
 * the server never holds while the demo builds exist; downloads-options.test.ts covers each of them.
 */

test('an unreachable server: loading, then the fetch error after three retries, and Try Again recovers', async ({
  page,
  context,
}) => {
  test.slow();
  await loadShell(page);
  const network = await cutOffServer(context, page);
  await openFromSidebar(page, 'Downloads');
  await expect(page.getByRole('heading', { level: 1, name: 'Downloads' })).toBeVisible();
  await expect(page.getByText('Loading downloads...')).toBeVisible();
  // Three retries (1 s, 2 s, 4 s) come first.
  const error = page.getByRole('alert').filter({ hasText: 'Failed to fetch assets' });
  await expect(error).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Loading downloads...')).toHaveCount(0);
  await expectAccessible(page);

  await network.reconnect();
  await error.getByRole('button', { name: 'Try Again' }).click();
  await expect(page.getByRole('radiogroup', { name: 'Choose your operating system' }).getByRole('radio')).toHaveCount(
    3,
  );
  await expect(error).toHaveCount(0);
});
