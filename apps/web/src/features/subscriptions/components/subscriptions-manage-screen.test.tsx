import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { redirectBrowser } from '@/lib/redirect';
import { storeSession } from '@/lib/session';
import { failure, fakeServer, OK, tokenPair, user } from '@/test/fake-server';
import { renderScreen, settle } from '@/test/render-screen';
import { driverSubscription, planSubscription, providerSubscription, robotLicense } from '@/test/subscription-fixtures';
import { ManageSubscriptionScreen } from './subscriptions-manage-screen';

vi.mock('@/lib/redirect', () => ({ redirectBrowser: vi.fn() }));

const EMAIL = 'ada@example.com';
const PORTAL_URL = 'https://billing.example.test/session/bps_1';

function serve(getSubscription: () => { status?: number; json: unknown }) {
  return fakeServer({
    GetSubscription: getSubscription,
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
    GetRobots: () => ({
      json: {
        error: OK,
        robots: [{ robot_id: 'robot-9', make: 'Nao', model: 'Nao', name: 'Marvin', join_date: 0 }],
      },
    }),
    GetCustomerID: () => ({ json: { error: OK, customer_id: 'cus_1' } }),
    CreateBillingPortalSession: () => ({ json: { error: OK, session: { session_url: PORTAL_URL } } }),
  });
}

const WITH_ITEMS = providerSubscription({
  user_subscriptions: [planSubscription('Standard Subscription')],
  robot_driver_subscriptions: [
    driverSubscription({ uuid: 'd1', robot_license_id: 'lic-1' }),
    driverSubscription({ uuid: 'd2', robot_license_id: 'lic-2', asset_id: 'driver-pepper' }),
  ],
});

// Real timers: this page has no rule about time, and the robot names arrive two calls deep.
beforeEach(() => {
  storeSession(tokenPair(), user(), true);
  vi.mocked(redirectBrowser).mockClear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function render(id = 'sub_1') {
  const result = await renderScreen(<ManageSubscriptionScreen email={EMAIL} subscriptionId={id} />);
  await settle();
  return result;
}

async function click(element: HTMLElement) {
  await act(async () => {
    fireEvent.click(element);
  });
}

describe('Manage Subscription Page (spec/001 §2)', () => {
  it('shows the title, the breadcrumb Home, Profile, Subscriptions and the id, and the details', async () => {
    const server = serve(() => ({ json: { error: OK, subscription: WITH_ITEMS } }));
    await render();
    expect(server.calls.find((c) => c.action === 'GetSubscription')?.body).toMatchObject({ subscription_id: 'sub_1' });
    expect(screen.getByRole('heading', { level: 1, name: 'Manage Subscription Page' })).toBeTruthy();
    const crumbs = screen.getByRole('navigation', { name: 'Subscription breadcrumb' });
    expect(
      within(crumbs)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Home', 'Profile', 'Subscriptions', 'sub_1']);
    expect(within(crumbs).getByRole('link', { name: 'Subscriptions' }).getAttribute('href')).toBe(
      '/dashboard/subscriptions/manage',
    );
    const details = screen.getByRole('region', { name: 'Subscription Details' });
    // epoch seconds times 1000
    expect(within(details).getByTestId('subscription-duration').textContent).toBe('Jan 05, 2025 - Jan 05, 2026');
    expect(within(details).getByText('sub_1')).toBeTruthy();
    expect(within(details).getByTestId('status-badge').textContent).toBe('Active');
  });

  it('lists the items: SKU, ID, the robot name or pairing code, and View', async () => {
    const server = serve(() => ({ json: { error: OK, subscription: WITH_ITEMS } }));
    await render();
    // GetLicences, then GetRobots for the paired licences: the name comes last.
    await screen.findByText('Marvin');
    expect(server.count('GetRobots')).toBe(1);
    const table = screen.getByRole('table', { name: 'Subscription Items' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['SKU', 'ID', 'Robot Name / Pairing Code', 'Controls']);
    const rows = within(table).getAllByTestId('item-row');
    expect(rows.map((r) => [...r.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent))).toEqual([
      ['Standard Subscription', 'plan-Standard Subscription', '—'],
      ['driver-nao', 'lic-1', 'Marvin'],
      ['driver-pepper', 'lic-2', 'PAIR22'],
    ]);
    expect(within(rows[0] as HTMLElement).queryByRole('button')).toBeNull();
    expect(screen.getByRole('link', { name: 'Contact support' }).getAttribute('href')).toBe('/dashboard/support');
  });

  it('View opens a paired robot, and toasts "Cannot navigate to Manage Robot" for an unpaired one', async () => {
    serve(() => ({ json: { error: OK, subscription: WITH_ITEMS } }));
    const { router } = await render();
    await screen.findByText('Marvin');
    await click(screen.getByRole('button', { name: 'View PAIR22' }));
    await settle();
    expect(screen.getByText('Cannot navigate to Manage Robot')).toBeTruthy();
    expect(screen.getByText('Has the robot been paired?')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
    await click(screen.getByRole('button', { name: 'View Marvin' }));
    await settle();
    expect(router.state.location.pathname).toBe('/dashboard/robot/manager/robot-9');
  });

  it('"Update Payment Info / Cancel" opens the billing portal', async () => {
    const server = serve(() => ({ json: { error: OK, subscription: WITH_ITEMS } }));
    await render();
    await click(screen.getByRole('button', { name: 'Update Payment Info / Cancel' }));
    await settle();
    expect(server.count('CreateBillingPortalSession')).toBe(1);
    expect(redirectBrowser).toHaveBeenCalledWith(PORTAL_URL);
  });

  it.each([
    ['cancelled', 'Cancelled'],
    ['canceled', 'Cancelled'],
    ['pending_assignment', 'Pending'],
    ['past_due', 'Past due'],
  ])('a status %s reads %s', async (status, label) => {
    serve(() => ({ json: { error: OK, subscription: providerSubscription({ status }) } }));
    await render();
    expect(screen.getByTestId('status-badge').textContent).toBe(label);
  });

  it('says when a cancelled subscription ends', async () => {
    serve(() => ({ json: { error: OK, subscription: providerSubscription({ cancel_at_period_end: true }) } }));
    await render();
    expect(screen.getByTestId('status-badge').textContent).toBe('Active');
    expect(screen.getByTestId('cancels-on').textContent).toBe('Cancels on Jan 05, 2026');
  });

  it.each([
    ['the answer has none', () => ({ json: { error: OK } })],
    [
      'the server does not know the id',
      () => ({ status: 404, json: failure(103, 'subscription_id: no subscription') }),
    ],
  ])('says "No subscription found" when %s', async (_name, handler) => {
    serve(handler);
    await render();
    expect(screen.getByText('No subscription found')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Return to Dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(screen.queryByRole('region', { name: 'Subscription Details' })).toBeNull();
  });

  it('shows "Error Fetching Subscription" with Return to Dashboard when the call fails', async () => {
    serve(() => ({ status: 500, json: failure(1, 'Internal error') }));
    await render();
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText('Error Fetching Subscription')).toBeTruthy();
    expect(within(alert).getByText('Failed to fetch subscription')).toBeTruthy();
    expect(within(alert).getByRole('link', { name: 'Return to Dashboard' }).getAttribute('href')).toBe('/dashboard');
  });
});
