import type { Locator, Page } from '@playwright/test';
import { robotDisplayName } from '@portal/contract';
import { expect } from '../fixtures';

/** Shared steps of the commerce specs (spec/001 §2 Add Robot, Cart widget, Cart page, Payment pages). */

/** The sandbox's standard test cards (apps/server/src/modules/payment/sandbox.routes.ts). */
export const CARDS = {
  success: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
} as const;

/** Drivers of the sandbox catalogue (apps/server/src/modules/payment/catalogue.json), GBP prices. */
export const NAO = { name: 'Nao driver', price: '£99.00' } as const;
export const PEPPER = { name: 'Pepper driver', price: '£149.00' } as const;

export const addedToast = (page: Page, product: string) =>
  page.getByText(`You have successfully added ${robotDisplayName(product)} to your cart.`, { exact: true });

/** Opens Add Robot and waits for its cards. */
export async function openAddRobot(page: Page) {
  await page.goto('/dashboard/robot/add');
  await expect(page.getByRole('heading', { level: 1, name: 'Add Robot' })).toBeVisible();
  await expect(page.getByTestId('add-robot-card').first()).toBeVisible();
}

/** The price button of a driver's card on Add Robot. */
export function priceButton(page: Page, product: string): Locator {
  return page.getByRole('button', { name: new RegExp(`^Add ${escapeRegExp(product)} to cart`) });
}

/** Clicks a driver's price button on Add Robot and waits for its toast. */
export async function addToCart(page: Page, product: string) {
  await priceButton(page, product).click();
  await expect(addedToast(page, product).last()).toBeVisible();
}

/** The cart widget's trigger in the sidebar footer ("Shopping Cart, 2 items"). */
export function cartWidget(page: Page): Locator {
  return page.getByRole('button', { name: /^Shopping Cart, \d+ items?$/ });
}

/** Opens the cart widget's "Shopping Cart" popover. */
export async function openCartWidget(page: Page): Promise<Locator> {
  await cartWidget(page).click();
  const popover = page.getByRole('dialog', { name: 'Shopping Cart' });
  await expect(popover).toBeVisible();
  return popover;
}

/** The cart page's item count line ("1 Item", "3 Items"). */
export const cartCount = (page: Page) => page.getByTestId('cart-count');

/**
 * Cart page -> Checkout: checks "Processing..." while the session is created (the HandlePurchase
 * call is held until the label has been seen, then let through untouched), then waits for the
 * server's sandbox checkout page.
 */
export async function checkoutFromCartPage(page: Page) {
  await expect(page.getByRole('heading', { level: 1, name: 'Cart' })).toBeVisible();
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/stripe', async (route) => {
    if (route.request().postData()?.includes('HandlePurchase')) await held;
    await route.continue();
  });
  const summary = page.getByRole('region', { name: 'Order Summary' });
  await summary.getByRole('button', { name: 'Checkout', exact: true }).click();
  await expect(summary.getByRole('button', { name: 'Processing...' })).toBeDisabled();
  release();
  await expect(page).toHaveURL(/\/sandbox\/checkout\/[^/]+$/);
  await page.unroute('**/api/stripe');
  await expectSandboxPage(page);
}

/** The sandbox checkout page: its notice and its form. */
export async function expectSandboxPage(page: Page) {
  await expect(page.getByRole('note')).toHaveText(/^Sandbox — no real payment\./);
  await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
}

/** The sandbox page's "Order summary" section. */
export const sandboxSummary = (page: Page) => page.getByRole('region', { name: 'Order summary' });

export const BILLING = {
  'Name on card': 'Eve Tester',
  Email: 'eve.tester@example.com',
  'Address line': '1 Test Street',
  City: 'Testford',
  Postcode: 'TE5 7ST',
  Country: 'United Kingdom',
} as const;

/** Fills the sandbox page's billing details. */
export async function fillBilling(page: Page) {
  for (const [label, value] of Object.entries(BILLING)) await page.getByLabel(label, { exact: true }).fill(value);
}

/** Fills the card fields and presses Pay. */
export async function payWith(page: Page, card: string) {
  await page.getByLabel('Card number', { exact: true }).fill(card);
  await page.getByLabel('Expiry (MM / YY)', { exact: true }).fill('12 / 39');
  await page.getByLabel('CVC', { exact: true }).fill('123');
  await page.getByRole('button', { name: /^Pay / }).click();
}

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
