import { createClient } from '@portal/client';
import { canonicalServer } from '../../../../playwright.config';
import { expect, test } from '../fixtures';
import { addToCart, CARDS, checkoutFromCartPage, fillBilling, NAO, openCartWidget, payWith } from './commerce-helpers';

/**
 * One address (issue 32 item 9): a portal whose PUBLIC_URL is http://localhost:PORT, opened at
 * 127.0.0.1 as someone may type it. The browser is sent to PUBLIC_URL, where its session and the
 * checkout's return addresses are; a call made at 127.0.0.1 is told the address to use. Before,
 * the page was served at 127.0.0.1 and every checkout failed with the generic toast.
 */
test.use({ baseURL: canonicalServer.url });

const alias = canonicalServer.url.replace('//localhost:', '//127.0.0.1:');

test('a visit on 127.0.0.1 is redirected to PUBLIC_URL, and its checkout succeeds', async ({
  page,
  signedIn: _signedIn,
}) => {
  test.slow();
  await page.goto(`${alias}/dashboard/robot/add?from=bookmark`);
  await expect(page).toHaveURL(`${canonicalServer.url}/dashboard/robot/add?from=bookmark`);
  // Signed in: the session is stored on PUBLIC_URL's origin, where the visit now is.
  await expect(page.getByRole('heading', { level: 1, name: 'Add Robot' })).toBeVisible();
  await expect(page.getByTestId('add-robot-card').first()).toBeVisible();

  await addToCart(page, NAO.name);
  const popover = await openCartWidget(page);
  await popover.getByRole('link', { name: 'Go to Checkout' }).click();
  await checkoutFromCartPage(page);
  await fillBilling(page);
  await payWith(page, CARDS.success);

  await expect(page).toHaveURL(/\/dashboard\/cart\/success\?session_id=/);
  expect(new URL(page.url()).origin).toBe(canonicalServer.url);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment Successful' })).toBeVisible();
});

test('a call made at 127.0.0.1 is told the address to use; the health probes answer there', async () => {
  const host = new URL(alias).host;
  const answer = await fetch(`${alias}/api/useraction`);
  expect(answer.status).toBe(421);
  expect(((await answer.json()) as { error: unknown }).error).toEqual({
    Success: false,
    Code: 102,
    Description: `host: ${host} is not this portal's address: use ${canonicalServer.url}`,
  });
  // A program on the action client (the hub, a script) fails with those words.
  const client = createClient({ baseUrl: alias, origin: alias, fetch: globalThis.fetch });
  await expect(client.csrf()).rejects.toThrow(`${host} is not this portal's address: use ${canonicalServer.url}`);
  for (const probe of ['/healthz', '/readyz']) expect((await fetch(`${alias}${probe}`)).status).toBe(200);
});
