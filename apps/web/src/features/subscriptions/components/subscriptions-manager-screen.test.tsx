import { ONE_DAY_MS, type RobotDriverSubscription } from '@portal/contract';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readCart, resetCartStore } from '@/lib/cart-store';
import { formatDateTime } from '@/lib/dates';
import { redirectBrowser } from '@/lib/redirect';
import { storeSession } from '@/lib/session';
import { cartLine, seedCart } from '@/test/cart-fixtures';
import { failure, fakeServer, OK, tokenPair, user } from '@/test/fake-server';
import { renderScreen, settle } from '@/test/render-screen';
import { CATALOGUE, CREATED, driverSubscription, planSubscription, robotLicense } from '@/test/subscription-fixtures';
import { REGISTRATION_GUIDE_URL } from './subscriptions-drivers-table';
import { SubscriptionManagerScreen } from './subscriptions-manager-screen';

vi.mock('@/lib/redirect', () => ({ redirectBrowser: vi.fn() }));

const EMAIL = 'ada@example.com';
const PORTAL_URL = 'https://billing.example.test/session/bps_1';
const CHECKOUT_URL = 'https://checkout.example.test/pay/cs_1';

type Answer = { status?: number; json: unknown };

function serve(
  options: {
    tier?: 'Standard Subscription' | 'Pro Subscription' | null;
    drivers?: RobotDriverSubscription[];
    plans?: ReturnType<typeof planSubscription>[];
    overrides?: Record<string, () => Answer | Promise<Answer>>;
  } = {},
) {
  const tier = options.tier === undefined ? 'Standard Subscription' : options.tier;
  const plans = options.plans ?? (tier ? [planSubscription(tier)] : []);
  return fakeServer({
    GetProducts: () => ({ json: { error: OK, products: CATALOGUE } }),
    GetActiveUserSubscription: () => ({
      json: { error: OK, user_subscriptions: plans.filter((p) => p.status === 'active'), overrideReason: 99 },
    }),
    ListSubscriptions: () => ({
      json: { error: OK, user_subscriptions: plans, robot_driver_subscriptions: options.drivers ?? [] },
    }),
    GetLicences: () => ({
      json: {
        error: OK,
        user_licenses: {
          email: EMAIL,
          robot_licenses: [robotLicense('lic-1', 'robot-9', ''), robotLicense('lic-2', '', 'PAIR22', 'Pepper')],
          shared_robot_licenses: [],
          asset_licenses: [],
        },
      },
    }),
    GetCustomerID: () => ({ json: { error: OK, customer_id: 'cus_1' } }),
    CreateBillingPortalSession: () => ({ json: { error: OK, session: { session_url: PORTAL_URL } } }),
    HandlePurchase: () => ({
      json: { error: OK, session: { session_id: 'cs_1', session_url: CHECKOUT_URL, amount: 15_000, currency: 'gbp' } },
    }),
    ...options.overrides,
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  storeSession(tokenPair(), user(), true);
  resetCartStore();
  vi.mocked(redirectBrowser).mockClear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  resetCartStore();
});

async function render() {
  const result = await renderScreen(<SubscriptionManagerScreen email={EMAIL} />);
  await settle();
  return result;
}

const card = (name: string) => screen.getByRole('region', { name });
const planButton = (name: string) => within(card(name)).getAllByRole('button').at(-1) as HTMLButtonElement;

async function click(element: HTMLElement) {
  await act(async () => {
    fireEvent.click(element);
  });
}

/** Opens a Radix menu from the keyboard (jsdom has no pointer events for it). */
async function openMenu(trigger: HTMLElement) {
  await act(async () => {
    trigger.focus();
    fireEvent.keyDown(trigger, { key: 'Enter' });
  });
  return screen.getByRole('menu');
}

describe('Subscription Manager: plan cards (spec/001 §2)', () => {
  it('shows the plans by their first GBP price, Standard as Most Popular, with their features', async () => {
    serve();
    await render();
    expect(screen.getByRole('heading', { level: 1, name: 'Subscription Manager' })).toBeTruthy();
    expect(screen.getAllByTestId('plan-card').map((c) => within(c).getByRole('heading').textContent)).toEqual([
      'Lite Subscription',
      'Standard Subscription',
      'Pro Subscription',
    ]);
    expect(within(card('Standard Subscription')).getByText('Most Popular')).toBeTruthy();
    expect(within(card('Pro Subscription')).queryByText('Most Popular')).toBeNull();
    expect(within(card('Pro Subscription')).getByText('Everything in standard, plus...')).toBeTruthy();
    expect(within(card('Standard Subscription')).getByText('Includes the following...')).toBeTruthy();
    expect(within(card('Lite Subscription')).getByText('Includes the following...')).toBeTruthy();
    const features = within(card('Standard Subscription')).getByRole('list', {
      name: 'Standard Subscription features',
    });
    expect(
      within(features)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Robot Manager', '3,000 dial minutes a year', '1 flexible license slot']);
  });

  it('defaults to Annually with the monthly equivalent; Lite has no toggle and shows 0', async () => {
    serve();
    await render();
    const standard = card('Standard Subscription');
    const price = () => within(standard).getByTestId('plan-price').textContent;
    expect(within(standard).getByRole('button', { name: 'Annually' }).getAttribute('aria-pressed')).toBe('true');
    expect(price()).toBe('£150.00/year£12.50 per user per month');
    await click(within(standard).getByRole('button', { name: 'Monthly' }));
    expect(price()).toBe('£15.00/month');
    // Pro's USD price is not used.
    expect(within(card('Pro Subscription')).getByTestId('plan-price').textContent).toBe(
      '£490.00/year£40.83 per user per month',
    );
    const lite = card('Lite Subscription');
    expect(within(lite).queryByRole('button', { name: 'Annually' })).toBeNull();
    expect(within(lite).queryByRole('group')).toBeNull();
    expect(within(lite).getByTestId('plan-price').textContent).toBe('£0/month');
  });

  it.each([
    ['Lite', null, ['Current Plan', 'Upgrade Now', 'Upgrade Now']],
    ['Standard', 'Standard Subscription', ['Unavailable', 'Current Plan', 'Upgrade Now']],
    ['Pro', 'Pro Subscription', ['Unavailable', 'Unavailable', 'Current Plan']],
  ] as const)('a %s user gets the buttons by tier index', async (_name, tier, labels) => {
    serve({ tier });
    await render();
    const buttons = ['Lite Subscription', 'Standard Subscription', 'Pro Subscription'].map(planButton);
    expect(buttons.map((b) => b.textContent)).toEqual(labels);
    expect(buttons.map((b) => b.disabled)).toEqual(labels.map((l) => l !== 'Upgrade Now'));
    expect(screen.getByTestId('current-plan').textContent).toBe(tier ? tier.replace(' Subscription', '') : 'Lite');
  });

  it('treats a failed active-subscription call as Lite', async () => {
    serve({ overrides: { GetActiveUserSubscription: () => ({ status: 500, json: failure(1, 'down') }) } });
    await render();
    expect(planButton('Lite Subscription').textContent).toBe('Current Plan');
    expect(planButton('Pro Subscription').textContent).toBe('Upgrade Now');
  });

  it('an upgrade empties the cart, adds the plan at the chosen price, checks out and redirects, busy for 1000 ms', async () => {
    seedCart([cartLine('Nao', 2)]);
    const server = serve({ tier: null });
    await render();
    await click(within(card('Pro Subscription')).getByRole('button', { name: 'Monthly' }));
    const button = planButton('Pro Subscription');
    await click(button);
    expect(button.getAttribute('data-state')).toBe('busy');
    expect(button.disabled).toBe(true);
    expect(readCart().map((i) => [i.id, i.selected_price_id, i.quantity])).toEqual([
      ['prod_pro', 'price_pro_monthly', 1],
    ]);
    await settle();
    expect(server.calls.find((c) => c.action === 'HandlePurchase')?.body.session).toMatchObject({
      products: [{ id: 'prod_pro', selected_price_id: 'price_pro_monthly', quantity: 1 }],
    });
    expect(redirectBrowser).toHaveBeenCalledWith(CHECKOUT_URL);
  });

  it('a plan replacing another plan in the cart tells the customer (issue 31: a cart holds one plan)', async () => {
    seedCart([{ ...cartLine('Standard Subscription', 1, 1_500), id: 'prod_standard', plan: true }]);
    serve({ tier: null });
    await render();
    await click(planButton('Pro Subscription'));
    await settle();
    expect(
      screen.getByText('Pro Subscription replaced Standard Subscription in your cart: a cart holds one plan.'),
    ).toBeTruthy();
    expect(readCart().map((i) => [i.id, i.plan, i.quantity])).toEqual([['prod_pro', true, 1]]);
  });

  it('the busy state lasts 1000 ms when the checkout fails', async () => {
    serve({ tier: null, overrides: { HandlePurchase: () => ({ status: 500, json: failure(1, 'down') }) } });
    await render();
    const button = planButton('Standard Subscription');
    await click(button);
    await settle();
    expect(screen.getByText('Failed to create checkout session. Please try again.')).toBeTruthy();
    expect(button.getAttribute('data-state')).toBe('busy');
    await settle(998);
    expect(button.getAttribute('data-state')).toBe('busy');
    await settle(2);
    expect(button.getAttribute('data-state')).toBe('idle');
    expect(button.disabled).toBe(false);
    expect(redirectBrowser).not.toHaveBeenCalled();
  });
});

describe('Subscription Manager: Update Payment Info (spec/001 §7, §8)', () => {
  it('opens the billing portal for the customer, coming back here', async () => {
    const server = serve();
    await render();
    await click(screen.getByRole('button', { name: 'Update Payment Info' }));
    await settle();
    const call = server.calls.find((c) => c.action === 'CreateBillingPortalSession');
    expect(call?.body).toMatchObject({ email: EMAIL, customer_id: 'cus_1', return_url: window.location.href });
    expect(redirectBrowser).toHaveBeenCalledWith(PORTAL_URL);
  });

  it.each([
    [
      'the server refuses',
      () => ({ status: 400, json: failure(5, 'return_url: must be on this site') }),
      'must be on this site',
    ],
    ['no address comes back', () => ({ json: { error: OK } }), 'Failed to create billing portal session'],
    ['the server gives no description', () => ({ status: 502, json: {} }), 'Failed to create billing portal session'],
  ])('toasts the failure when %s', async (_name, handler, description) => {
    serve({ overrides: { CreateBillingPortalSession: handler } });
    await render();
    await click(screen.getByRole('button', { name: 'Update Payment Info' }));
    await settle();
    expect(screen.getByText('Failed to update payment information')).toBeTruthy();
    expect(screen.getByText(description)).toBeTruthy();
    expect(redirectBrowser).not.toHaveBeenCalled();
  });
});

/** The server's answers when Stripe fails (docs/decisions/064): 502 or 503, code 111, never a 401. */
const providerFailed = () => ({
  status: 502,
  json: failure(111, 'The payment provider could not complete this, please try again later (request r-1)'),
});
const providerDown = () => ({
  status: 503,
  json: failure(111, 'Payments are unavailable right now, please try again in a few minutes (request r-2)'),
});

describe('Subscription Manager: the payment provider fails (issue 31, finding 3)', () => {
  it.each([
    ['Stripe refuses (502)', providerFailed],
    ['Stripe is down (503)', providerDown],
  ])('%s: a checkout shows the spec’s text and the session is not refreshed', async (_name, answer) => {
    const server = serve({ tier: null, overrides: { HandlePurchase: answer } });
    await render();
    await click(planButton('Standard Subscription'));
    await settle();
    expect(screen.getByText('Failed to create checkout session. Please try again.')).toBeTruthy();
    // Neither the start-up check again nor a token refresh: a 401 would have caused one of them.
    expect([server.count('get-self'), server.count('refresh-access-token')]).toEqual([0, 0]);
    expect(redirectBrowser).not.toHaveBeenCalled();
  });

  it.each([
    [
      'the billing portal fails (502)',
      { CreateBillingPortalSession: providerFailed },
      'The payment provider could not complete this, please try again later (request r-1)',
    ],
    ['the customer cannot be fetched (503)', { GetCustomerID: providerDown }, 'Failed to fetch customer ID'],
  ])(
    '%s: Update Payment Info shows the spec’s text and the session is not refreshed',
    async (_name, overrides, description) => {
      const server = serve({ overrides });
      await render();
      await click(screen.getByRole('button', { name: 'Update Payment Info' }));
      await settle();
      expect(screen.getByText('Failed to update payment information')).toBeTruthy();
      expect(screen.getByText(description)).toBeTruthy();
      expect([server.count('get-self'), server.count('refresh-access-token')]).toEqual([0, 0]);
      expect(redirectBrowser).not.toHaveBeenCalled();
    },
  );
});

describe('Subscription Manager: Refresh Subscriptions (spec/001 §4)', () => {
  const refresh = () => screen.getByRole('button', { name: /^Refresh Subscriptions/ }) as HTMLButtonElement;

  it('with no subscriptions shows the notice for 3 s and does not refetch', async () => {
    const server = serve({ tier: null });
    await render();
    expect(server.count('ListSubscriptions')).toBe(1);
    await click(refresh());
    expect(screen.getByText('You have no subscriptions to refresh.')).toBeTruthy();
    expect(refresh().disabled).toBe(true);
    expect(screen.getByTestId('refresh-countdown').textContent).toBe('(3s)');
    await settle(1_000);
    expect(screen.getByTestId('refresh-countdown').textContent).toBe('(2s)');
    await settle(1_999);
    expect(screen.getByText('You have no subscriptions to refresh.')).toBeTruthy();
    expect(refresh().disabled).toBe(true);
    await settle(1);
    expect(screen.queryByText('You have no subscriptions to refresh.')).toBeNull();
    expect(refresh().disabled).toBe(false);
    expect(server.count('ListSubscriptions')).toBe(1);
    expect(server.count('GetLicences')).toBe(1);
  });

  it('with subscriptions refetches subscriptions and robots, disabled for 3 s', async () => {
    const server = serve({ drivers: [driverSubscription()] });
    await render();
    await click(refresh());
    await settle();
    expect(server.count('ListSubscriptions')).toBe(2);
    expect(server.count('GetLicences')).toBe(2);
    expect(screen.queryByText('You have no subscriptions to refresh.')).toBeNull();
    expect(refresh().disabled).toBe(true);
    await settle(3_000);
    expect(refresh().disabled).toBe(false);
  });
});

describe('Subscription Manager: Robot Driver Subscriptions (spec/001 §2, §4)', () => {
  const rows = () => screen.queryAllByTestId('driver-row');
  const cellTexts = (column: number) => rows().map((r) => r.querySelectorAll('td')[column]?.textContent);

  it('shows model, product, status, days and hours, start and expiry; Status ascending by default', async () => {
    serve({
      drivers: [
        driverSubscription({ uuid: 'a', status: 'expired' }),
        driverSubscription({
          uuid: 'b',
          status: 'pending_assignment',
          robot_license_id: 'lic-2',
          asset_id: 'driver-pepper',
        }),
        driverSubscription({ uuid: 'c', status: 'active', overrideReason: 0, cancel_at_period_end: true }),
        driverSubscription({ uuid: 'd', status: 'cancelled', asset_id: 'driver-gone', robot_license_id: 'x' }),
      ],
    });
    await render();
    expect(cellTexts(2)).toEqual(['ActiveFreeTrialCancels at period end', 'Cancelled', 'Expired', 'Pending']);
    expect(cellTexts(0)).toEqual(['Nao', '—', 'Nao', 'Pepper']);
    expect(cellTexts(1)).toEqual(['Nao driver', 'Unknown Product', 'Nao driver', 'Pepper driver']);
    expect(cellTexts(3)?.[0]).toBe('365 days, 0 hours');
    expect(cellTexts(4)?.[0]).toBe(formatDateTime(CREATED));
    expect(cellTexts(4)?.[0]).toMatch(/^[A-Z][a-z]{2} \d{2}:\d{2} \d{2}\/\d{2}\/\d{4}$/);
    expect(cellTexts(5)?.[0]).toBe(formatDateTime(CREATED + 365 * ONE_DAY_MS));

    // Sorting by Status the other way.
    await click(screen.getByRole('button', { name: 'Status' }));
    expect(cellTexts(2)).toEqual(['Pending', 'Expired', 'Cancelled', 'ActiveFreeTrialCancels at period end']);
  });

  it('filters on the robot model and pages by 10 with Previous and Next', async () => {
    const drivers = Array.from({ length: 12 }, (_, i) =>
      driverSubscription({
        uuid: `n${i}`,
        ...(i % 4 === 0 ? { robot_license_id: 'lic-2', asset_id: 'driver-pepper' } : {}),
      }),
    );
    serve({ drivers });
    await render();
    expect(rows()).toHaveLength(10);
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    const previous = screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement;
    expect(previous.disabled).toBe(true);
    await click(screen.getByRole('button', { name: 'Next' }));
    expect(rows()).toHaveLength(2);
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();

    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter by robot model' }), { target: { value: 'PEP' } });
    await settle();
    expect(cellTexts(0)).toEqual(['Pepper', 'Pepper', 'Pepper']);
    expect(screen.getByText('Page 1 of 1')).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter by robot model' }), { target: { value: 'tiago' } });
    await settle();
    expect(rows()).toHaveLength(0);
    expect(screen.getByText('No robot driver subscriptions.')).toBeTruthy();
  });

  it('hides and shows columns', async () => {
    serve({ drivers: [driverSubscription()] });
    await render();
    expect(screen.getByRole('columnheader', { name: 'Product' })).toBeTruthy();
    const menu = await openMenu(screen.getByRole('button', { name: 'Columns' }));
    await click(within(menu).getByRole('menuitemcheckbox', { name: 'Product' }));
    expect(screen.queryByRole('columnheader', { name: 'Product' })).toBeNull();
    expect(screen.getByRole('columnheader', { name: 'Robot Model' })).toBeTruthy();
  });

  it.each([
    ['active', ['View Robot', 'Manage Subscription', 'Get Help']],
    ['cancelled', ['Get Help']],
    ['expired', ['Get Help']],
    ['pending_assignment', ['Get Help']],
    ['inactive', ['Get Help']],
  ] as const)('a row %s offers %j', async (status, labels) => {
    serve({ drivers: [driverSubscription({ status })] });
    await render();
    const menu = await openMenu(screen.getByRole('button', { name: 'Actions for Nao driver' }));
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(labels);
  });

  it('Manage Subscription opens the subscription page; View Robot the paired robot', async () => {
    serve({ drivers: [driverSubscription({ stripe_id: 'sub_42' })] });
    const { router } = await render();
    let menu = await openMenu(screen.getByRole('button', { name: 'Actions for Nao driver' }));
    await click(within(menu).getByRole('menuitem', { name: 'Manage Subscription' }));
    await settle();
    expect(router.state.location.pathname).toBe('/dashboard/subscriptions/manager/stripe/sub_42');
    menu = await openMenu(screen.getByRole('button', { name: 'Actions for Nao driver' }));
    await click(within(menu).getByRole('menuitem', { name: 'View Robot' }));
    await settle();
    expect(router.state.location.pathname).toBe('/dashboard/robot/manager/robot-9');
  });

  it('View Robot on an unpaired licence toasts "Robot Not Paired" and opens the registration guide', async () => {
    const open = vi.fn();
    vi.stubGlobal('open', open);
    serve({ drivers: [driverSubscription({ robot_license_id: 'lic-2', asset_id: 'driver-pepper' })] });
    const { router } = await render();
    const menu = await openMenu(screen.getByRole('button', { name: 'Actions for Pepper driver' }));
    await click(within(menu).getByRole('menuitem', { name: 'View Robot' }));
    await settle();
    expect(screen.getByText('Robot Not Paired')).toBeTruthy();
    expect(screen.getByText('Opening robot registration guide...')).toBeTruthy();
    expect(open).toHaveBeenCalledWith(REGISTRATION_GUIDE_URL, '_blank', 'noopener,noreferrer');
    expect(router.state.location.pathname).toBe('/');
  });

  it('shows the Error alert when the subscriptions cannot be loaded', async () => {
    serve({ overrides: { ListSubscriptions: () => ({ status: 500, json: failure(1, 'boom') }) } });
    await render();
    const alert = screen.getAllByRole('alert').find((a) => a.textContent?.startsWith('Error'));
    expect(alert?.textContent).toBe('ErrorFailed to list subscriptions');
  });
});
