import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Asset, assets, LICENSE_AGREEMENT_VERSION } from '@portal/contract';
import { noStorageServer } from '../../../../playwright.config';
import { type ApiSession, expect, expectAccessible, screenshots, test } from '../fixtures';

/**
 * Downloads while storage is down (issue 33 item 6, docs/decisions/059), on a server whose bucket is
 * at an address nothing listens on (playwright.config.ts); its one build was recorded before it
 * started. The customer gets the spec's toast, and a link from before a page, never JSON.
 */

test.use({ baseURL: noStorageServer.url });

/**
 * A download link handed out while something answered at the bucket's address: a stand-in that says
 * yes to every request, so GetDownload's check of the object passes. It stops before the answer.
 */
async function linkWhileStorageAnswers(user: ApiSession): Promise<string> {
  const storage = createServer((_request, response) => response.end());
  await new Promise<void>((resolve) => storage.listen(noStorageServer.s3Port, '127.0.0.1', resolve));
  try {
    expect((storage.address() as AddressInfo).port).toBe(noStorageServer.s3Port);
    const { assets: list } = await user.api.call(assets, 'GetAll', {});
    const hub = list.find((a) => a.artifacts.some((f) => f.OS === 'linux')) as Asset;
    const artifact = hub.artifacts.find((f) => f.OS === 'linux') as Asset['artifacts'][number];
    const answer = await user.api.call(assets, 'GetDownload', {
      asset_id: hub.id,
      assets: { ...hub, artifacts: [artifact] },
      type: hub.type,
      download_link: '',
      agreement_version: LICENSE_AGREEMENT_VERSION,
      accepted: true,
    });
    return answer.download_link;
  } finally {
    storage.closeAllConnections();
    await new Promise<void>((resolve) => storage.close(() => resolve()));
  }
}

test('storage down: Download toasts "Failed to fetch download link", and a link from before answers a 503 page', async ({
  page,
  signedIn: user,
}) => {
  await page.goto('/dashboard/downloads');
  await page.getByTestId('os-card-linux').click();
  await page.getByRole('button', { name: /^Download for Linux \(DEB\)/ }).click();
  const dialog = page.getByRole('dialog', { name: 'License agreement' });
  await dialog.getByRole('checkbox', { name: /I have read and agree/ }).check();
  const answered = page.waitForResponse(
    (r) => r.url().endsWith('/api/assets') && r.request().postDataJSON()?.action === 'GetDownload',
  );
  await dialog.getByRole('button', { name: 'Download Now' }).click();
  expect((await answered).status()).toBe(503);
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Failed to fetch download link' })).toBeVisible();
  // The dialog stays, ticked, for another try.
  await expect(dialog.getByRole('button', { name: 'Download Now' })).toBeEnabled();
  await expectAccessible(page);
  await screenshots(page, 'downloads-storage-down');

  const link = await linkWhileStorageAnswers(user);
  const unavailable = await page.goto(link);
  expect(unavailable?.status()).toBe(503);
  expect(unavailable?.headers()['content-type']).toBe('text/html; charset=utf-8');
  await expect(page).toHaveTitle('Downloads are unavailable · Robot Portal');
  await expect(page.getByRole('heading', { level: 1, name: 'Downloads are unavailable' })).toBeVisible();
  await expect(page.getByText('Downloads are unavailable right now, please try again in a few minutes.')).toBeVisible();
  await expect(page.getByText(/^Reference: [0-9a-f-]{36}$/)).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, 'download-link-unavailable');

  // An altered link is refused with a page too.
  const forged = await page.goto(link.replace(/sig=[\w-]{4}/, 'sig=AAAA'));
  expect(forged?.status()).toBe(403);
  await expect(page.getByRole('heading', { level: 1, name: 'This download link is not valid' })).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, 'download-link-not-valid');

  await page.getByRole('link', { name: 'Back to Downloads' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Downloads' })).toBeVisible();
});
