import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { type Artifact, type Asset, AssetType, compareVersions, formatVersion } from '@portal/contract';
import { createVerifiedUser, expect, expectAccessible, screenshots, signInByApi, test } from '../fixtures';

/** Downloads against the demo hub builds the server seeds (one per platform). */

test.beforeEach(async ({ page }) => {
  const user = await createVerifiedUser(page.request);
  await signInByApi(page, user.email, user.password);
});

test('choose a system, accept the licence, and get a file whose bytes match its checksum', async ({ page }) => {
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
  // item that takes focus while an arrow key is down).
  await systems.getByRole('radio', { name: /Windows/ }).click();
  await page.keyboard.down('ArrowRight');
  await page.waitForTimeout(50);
  await page.keyboard.up('ArrowRight');
  await expect(systems.getByRole('radio', { name: /macOS/ })).toBeChecked();
  await expect(page.getByRole('radiogroup', { name: 'Package' }).getByRole('radio')).toHaveCount(2);

  // Linux: the newest DEB build is offered (the demo data also has an older one).
  await page.getByTestId('os-card-linux').click();
  await expect(systems.getByRole('radio', { name: /Linux/ })).toBeChecked();
  const packages = page.getByRole('radiogroup', { name: 'Package' });
  await expect(packages.getByRole('radio', { name: /Linux \(DEB\)/ })).toBeChecked();
  const debs = hubOnly(assets).flatMap((a) => a.artifacts.filter((f) => f.OS === 'linux' && f.Arch === 'deb'));
  expect(debs.length).toBeGreaterThan(1);
  const newest = debs.map((f) => f.version_info.sdk).sort((a, b) => compareVersions(b, a))[0];
  await expect(page.locator('dt', { hasText: /^Version$/ }).locator('xpath=following-sibling::dd')).toHaveText(
    formatVersion(newest),
  );

  await expectAccessible(page);
  await screenshots(page, 'downloads');

  // The licence dialog: Download Now is disabled until the box is ticked, and the tick is
  // forgotten when the dialog closes.
  await page.getByRole('button', { name: /^Download for / }).click();
  const dialog = page.getByRole('dialog', { name: 'Licence agreement' });
  const agree = dialog.getByRole('checkbox', { name: /I have read and agree/ });
  const downloadNow = dialog.getByRole('button', { name: 'Download Now' });
  await expect(dialog.getByRole('region', { name: 'Licence text' })).toContainText('England and Wales');
  await expect(downloadNow).toBeDisabled();
  await agree.check();
  await expect(downloadNow).toBeEnabled();
  await expectAccessible(page);
  await screenshots(page, 'downloads-licence');
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

/** Replaces GetAll's answer with the given assets (or status), to reach the screen's empty and error messages. */
async function answerAssets(
  page: Page,
  answer: { assets?: Asset[]; status?: number; body?: unknown; transform?: (assets: Asset[]) => Asset[] },
) {
  await page.route('**/api/assets', async (route) => {
    const body = route.request().postDataJSON() as { action?: string };
    if (body.action !== 'GetAll') return route.continue();
    if (answer.status) {
      return route.fulfill({
        status: answer.status,
        json: { error: { Success: false, Code: 500, Description: 'Service unavailable' } },
      });
    }
    if (answer.body !== undefined) return route.fulfill({ json: answer.body });
    const real = (await (await route.fetch()).json()) as { assets: Asset[] };
    const assets = answer.assets ?? answer.transform?.(real.assets) ?? real.assets;
    return route.fulfill({ json: { ...real, assets } });
  });
}

const hubOnly = (assets: Asset[]) => assets.filter((a) => a.type === AssetType.Application);
const onlyOs = (artifacts: Artifact[], os: Artifact['OS']) => artifacts.filter((f) => f.OS === os);

test.describe('every empty and error message', () => {
  test('nothing to download', async ({ page }) => {
    await answerAssets(page, { assets: [] });
    await page.goto('/dashboard/downloads');
    await expect(page.getByText('No downloads are currently available')).toBeVisible();
  });

  test('a hub without artifacts', async ({ page }) => {
    await answerAssets(page, { transform: (a) => hubOnly(a).map((x) => ({ ...x, artifacts: [] })) });
    await page.goto('/dashboard/downloads');
    await expect(page.getByText('No artifacts available')).toBeVisible();
  });

  test('only artifacts no platform offers', async ({ page }) => {
    await answerAssets(page, {
      transform: (a) =>
        hubOnly(a).map((x) => ({
          ...x,
          artifacts: x.artifacts.slice(0, 1).map((f) => ({ ...f, OS: 'windows' as const, Arch: 'arm64' as const })),
        })),
    });
    await page.goto('/dashboard/downloads');
    await expect(page.getByText('No compatible downloads found for any operating system')).toBeVisible();
  });

  test('a system without builds, and a system with only incompatible ones', async ({ page }) => {
    await answerAssets(page, {
      transform: (a) =>
        hubOnly(a).map((x) => ({
          ...x,
          artifacts: [
            ...onlyOs(x.artifacts, 'linux'),
            ...onlyOs(x.artifacts, 'windows').map((f) => ({ ...f, Arch: 'arm64' as const })),
          ],
        })),
    });
    await page.goto('/dashboard/downloads');
    await page.getByTestId('os-card-mac').click();
    await expect(page.getByText('No downloads available for macOS')).toBeVisible();
    await expect(page.getByTestId('os-card-mac')).toContainText('SDK version N/A');
    await page.getByTestId('os-card-windows').click();
    await expect(page.getByText('No compatible downloads available', { exact: true })).toBeVisible();
    await expectAccessible(page);
  });

  test('loading, then a failure after three retries', async ({ page }) => {
    test.slow();
    await answerAssets(page, { status: 503 });
    await page.goto('/dashboard/downloads');
    await expect(page.getByText('Loading downloads...')).toBeVisible();
    await expect(page.getByText('Failed to fetch assets')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('button', { name: 'Try Again' })).toBeVisible();
  });

  test('an answer of the wrong shape', async ({ page }) => {
    test.slow();
    await answerAssets(page, { body: { assets: 'not a list', error: { Success: true, Code: 0, Description: 'OK' } } });
    await page.goto('/dashboard/downloads');
    await expect(page.getByText('Invalid assets data received')).toBeVisible({ timeout: 30_000 });
  });
});
