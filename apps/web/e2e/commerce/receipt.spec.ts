import { license as licenseService } from '@portal/contract';
import { expect, expectAccessible, readMail, screenshots, test } from '../fixtures';
import { openSubscriptionManager, paySandboxCheckout, planButton } from '../subscriptions/subscriptions-helpers';
import { addToCart, CARDS, checkoutFromCartPage, fillBilling, NAO, openAddRobot, payWith } from './commerce-helpers';

/**
 * Payment Successful as a receipt (issue 32 item 3): the server's lines with "/year", the total, the
 * order reference (the receipt mail's too), the date, and the pairing step of each driver bought.
 */

for (const theme of ['light', 'dark'] as const)
  test(`a driver bought with 4242 shows the receipt and its pairing code (${theme})`, async ({
    page,
    context,
    signedIn: user,
  }) => {
    test.slow();
    await page.addInitScript((t) => localStorage.setItem('theme', t), theme);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openAddRobot(page);
    await addToCart(page, NAO.name);
    await page.goto('/dashboard/cart');
    await checkoutFromCartPage(page);
    await fillBilling(page);
    await payWith(page, CARDS.success);

    await expect(page).toHaveURL(/\/dashboard\/cart\/success\?session_id=/);
    await expect(page.getByRole('heading', { level: 1, name: 'Payment Successful' })).toBeVisible();
    await expect(page.getByTestId('purchased-line')).toHaveText([
      `${NAO.name} × 1${NAO.price} × 1 = ${NAO.price}/year`,
    ]);
    const receipt = page.getByTestId('receipt');
    await expect(receipt).toContainText(`Total${NAO.price}`);
    await expect(receipt).toContainText(/Order referenceRP-[0-9A-F]{8}/);
    await expect(receipt).toContainText(/Date\d{1,2} [A-Z][a-z]+ \d{4}/);
    const reference = (await receipt.locator('dd.font-mono').textContent()) ?? '';

    const licenses = await user.api.call(licenseService, 'GetLicences', { email: user.email });
    const code = licenses.user_licenses?.robot_licenses?.[0]?.pair_code ?? '';
    expect(code).toMatch(/^[A-Z0-9]{6,16}$/);
    const pairing = page.getByRole('region', { name: 'Pair your robot' });
    await expect(pairing.getByTestId('pairing-code')).toHaveText([code]);
    await expect(pairing.getByRole('link', { name: 'Downloads' })).toHaveAttribute('href', '/dashboard/downloads');
    const copy = pairing.getByRole('button', { name: /^Copy the pairing code of / });
    await copy.click();
    await expect(copy).toHaveAttribute('aria-pressed', 'true');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);

    await expectAccessible(page);
    await screenshots(page, theme === 'light' ? 'commerce-receipt' : 'commerce-receipt-dark');

    // The receipt mail carries the same reference.
    expect(await readMail(user.email, { subject: /Your Robot Portal receipt/ })).toContain(`Order: ${reference}`);

    await pairing.getByRole('link', { name: 'Downloads' }).click();
    await expect(page).toHaveURL(/\/dashboard\/downloads$/);
  });

test('a plan bought shows its interval on the receipt and no pairing step', async ({ page, signedIn: _user }) => {
  test.slow();
  await openSubscriptionManager(page);
  await planButton(page, 'Standard Subscription').click();
  await paySandboxCheckout(page);
  await expect(page.getByTestId('purchased-line')).toHaveText([/^Standard Subscription.*\/(year|month)$/]);
  await expect(page.getByTestId('receipt')).toContainText(/Order referenceRP-[0-9A-F]{8}/);
  await expect(page.getByRole('region', { name: 'Pair your robot' })).toHaveCount(0);
});

test('a plan change goes to its review, then a receipt of the prorated charge, never the stored cart first', async ({
  page,
  signedIn: _user,
}) => {
  test.slow();
  await openSubscriptionManager(page);
  await planButton(page, 'Standard Subscription').click();
  await paySandboxCheckout(page);
  const first = (await page.getByTestId('receipt').locator('dd.font-mono').textContent()) ?? '';

  // From the start of every page: record each purchased line the page ever shows, so a stored
  // cart's line shown first and then replaced would be caught.
  await page.addInitScript(() => {
    const w = window as unknown as { seenLines: string[] };
    w.seenLines = [];
    const record = () => {
      for (const l of Array.from(document.querySelectorAll('[data-testid="purchased-line"]')))
        w.seenLines.push(l.textContent ?? '');
    };
    new MutationObserver(record).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await openSubscriptionManager(page);
  await planButton(page, 'Pro Subscription').click();
  // Reviewed before it is charged (issue 31), then Confirm.
  await expect(page.getByRole('heading', { level: 1, name: 'Review your plan change' })).toBeVisible();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/dashboard\/cart\/success\?session_id=/);
  // The amount charged now: one prorated charge, not a price per interval.
  await expect(page.getByTestId('purchased-line')).toHaveText([
    /^Pro Subscription \(plan change\) × 1.*£[\d,]+\.\d{2}$/,
  ]);
  const seen = await page.evaluate(() => (window as unknown as { seenLines: string[] }).seenLines);
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.filter((l) => !l.includes('(plan change)'))).toEqual([]);
  const receipt = page.getByTestId('receipt');
  await expect(receipt).toContainText(/Order referenceRP-[0-9A-F]{8}/);
  await expect(receipt.locator('dd.font-mono')).not.toHaveText(first);
  await expectAccessible(page);
});
