import { emptyServer, linuxOnlyServer } from '../../../../playwright.config';
import { expect, expectAccessible, test } from '../fixtures';

/**
 * The Downloads screen's empty states, from real data: servers whose artifact stores the operator
 * command line set up before they started (playwright.config.ts).
 */

test.describe('a server with no downloads at all', () => {
  test.use({ baseURL: emptyServer.url });

  test('says no downloads are available', async ({ page, signedIn: _signedIn }) => {
    await page.goto('/dashboard/downloads');
    await expect(page.getByText('No downloads are currently available')).toBeVisible();
    await expect(page.getByRole('button', { name: /^Download for / })).toHaveCount(0);
    await expectAccessible(page);
  });
});

test.describe('a server with only a Linux (DEB) build and a Windows ARM build', () => {
  test.use({ baseURL: linuxOnlyServer.url });

  test('offers Linux, and names what is missing for the other systems', async ({ page, signedIn: _signedIn }) => {
    await page.goto('/dashboard/downloads');
    const systems = page.getByRole('radiogroup', { name: 'Choose your operating system' });
    await expect(systems.getByRole('radio')).toHaveCount(3);

    await page.getByTestId('os-card-linux').click();
    await expect(page.getByRole('button', { name: /^Download for Linux \(DEB\)/ })).toBeVisible();

    await page.getByTestId('os-card-mac').click();
    await expect(page.getByText('No downloads available for macOS')).toBeVisible();
    await expect(page.getByRole('button', { name: /^Download for / })).toHaveCount(0);

    await page.getByTestId('os-card-windows').click();
    await expect(page.getByText('No compatible downloads available')).toBeVisible();
    await expect(page.getByRole('button', { name: /^Download for / })).toHaveCount(0);
    await expectAccessible(page);
  });
});
