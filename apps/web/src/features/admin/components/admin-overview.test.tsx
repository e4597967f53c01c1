import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { storeSession } from '@/lib/session';
import { failure, fakeServer, never, OK, tokenPair, user } from '@/test/fake-server';
import { renderScreen, settle } from '@/test/render-screen';
import { staffMe } from '../admin-fixtures';
import { overview } from '../admin-release-fixtures';
import { AdminOverview, REVENUE_HIDDEN } from './admin-overview';

// Staff calls go with the session (packages/client): the tests' browser has one.
beforeEach(() => storeSession(tokenPair(), user({ email: 'grace@example.com' }), true));

const figure = (id: string) => screen.getByTestId(id).textContent ?? '';

describe('the overview', () => {
  it('shows every figure GetOverview answers, revenue as money per currency', async () => {
    fakeServer({ GetOverview: () => ({ json: { ...overview(), error: OK } }) });
    await renderScreen(<AdminOverview me={staffMe('admin')} />);
    await screen.findByTestId('overview-accounts');
    expect(figure('overview-accounts')).toContain('1,234');
    expect(figure('overview-accounts')).toContain('17 new in the last 7 days');
    expect(figure('overview-plans')).toContain('Standard40 paid, 2 granted');
    expect(figure('overview-plans')).toContain('Pro12 paid, 0 granted');
    expect(figure('overview-revenue')).toContain('£1,234.56');
    expect(figure('overview-revenue')).toContain('GBP: 50 plans, 7 robot drivers');
    expect(figure('overview-revenue')).toContain('$99.99');
    expect(figure('overview-revenue')).not.toContain(REVENUE_HIDDEN);
    expect(figure('overview-robots')).toContain('9');
    expect(figure('overview-support')).toMatch(/^Open support requests63 new, 2 open, 1 waiting/);
    expect(figure('overview-failed-renewals')).toContain('1 plans, 2 robot drivers');
    expect(figure('overview-disputes')).toContain('1');
    expect(figure('overview-outbox')).toContain('4due now, 1 failing');
    expect(figure('overview-webhooks')).toContain('31received in the last 24 hours');
    expect(screen.getByTestId('overview-as-of').textContent).toMatch(/^As of 2026-11-27/);
  });

  it('support gets no revenue: a note instead, and no amount', async () => {
    const { recurring_revenue: _r, unpriced_subscriptions: _u, ...rest } = overview();
    fakeServer({ GetOverview: () => ({ json: { ...rest, revenue_visible: false, error: OK } }) });
    await renderScreen(<AdminOverview me={staffMe('support')} />);
    await screen.findByTestId('overview-revenue');
    expect(figure('overview-revenue')).toContain(REVENUE_HIDDEN);
    expect(figure('overview-revenue')).not.toMatch(/[£$]/);
    expect(figure('overview-accounts')).toContain('1,234');
  });

  it('names subscriptions left out of the revenue, and says when nothing is active', async () => {
    fakeServer({
      GetOverview: () => ({
        json: { ...overview({ recurring_revenue: [], unpriced_subscriptions: 2, plans_by_tier: [] }), error: OK },
      }),
    });
    await renderScreen(<AdminOverview me={staffMe('finance')} />);
    await screen.findByTestId('overview-revenue');
    expect(figure('overview-revenue')).toContain('No paid plans or drivers are active.');
    expect(figure('overview-revenue')).toContain('2 active subscriptions have a price the catalogue does not know');
    expect(figure('overview-plans')).toContain('No active plans.');
  });

  it('shows a placeholder while loading', async () => {
    fakeServer({ GetOverview: never });
    await renderScreen(<AdminOverview me={staffMe('admin')} />);
    expect(screen.getByRole('status', { name: 'Loading the overview' })).toBeTruthy();
    expect(screen.queryByTestId('overview-accounts')).toBeNull();
  });

  it('a failure offers to try again; Refresh asks the server again', async () => {
    let calls = 0;
    const server = fakeServer({
      GetOverview: () => {
        calls += 1;
        if (calls === 1) return { status: 500, json: failure(1, 'Internal error') };
        return { json: { ...overview({ accounts: { total: calls, new_this_week: 0 } }), error: OK } };
      },
    });
    await renderScreen(<AdminOverview me={staffMe('admin')} />);
    expect(await screen.findByText('The overview could not be loaded')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Try again' })));
    await screen.findByTestId('overview-accounts');
    expect(figure('overview-accounts')).toMatch(/^Customer accounts2/);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Refresh' })));
    await settle();
    expect(server.count('GetOverview')).toBe(3);
    expect(figure('overview-accounts')).toMatch(/^Customer accounts3/);
  });

  it('keeps what the role may do, folded, under the figures', async () => {
    fakeServer({ GetOverview: () => ({ json: { ...overview(), error: OK } }) });
    await renderScreen(<AdminOverview me={staffMe('support')} />);
    const role = screen.getByRole('region', { name: 'Your role: Support' });
    const can = within(role).getByRole('list', { name: 'What your role may do', hidden: true });
    expect(within(can).getByText('Grant goodwill dial time', { ignore: false })).toBeTruthy();
    expect(within(can).queryByText('Refund payments')).toBeNull();
    expect(within(role).getByRole('link', { name: 'Releases' })).toBeTruthy();
  });
});
