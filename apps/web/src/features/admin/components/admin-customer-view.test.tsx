import type { CustomerView } from '@portal/contract';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { storeSession } from '@/lib/session';
import { failure, fakeServer, OK, tokenPair, user } from '@/test/fake-server';
import { renderScreen, settle } from '@/test/render-screen';
import { customerPayment, customerView, staffMe } from '../admin-fixtures';
import { AdminCustomerSearch } from './admin-customer-search';
import { AdminCustomerView } from './admin-customer-view';
import { reasonError } from './admin-reason-dialog';

beforeEach(() => storeSession(tokenPair(), user({ email: 'grace@example.com' }), true));

const USER_ID = '33333333-3333-4333-8333-333333333333';
const actions = () => screen.getByText('Actions').closest('[data-slot="card"]') as HTMLElement;
const actionNames = () =>
  within(actions())
    .getAllByRole('button')
    .map((b) => b.textContent);

describe('customer search', () => {
  it('asks for two characters before searching, then lists hits with what matched and a link', async () => {
    const server = fakeServer({
      SearchCustomers: () => ({
        json: {
          customers: [
            {
              user_id: USER_ID,
              email: 'casey@example.com',
              name: 'Casey',
              company: 'Acme',
              tier: 'Pro',
              matched: ['robot_id'],
              matched_value: 'r-123',
            },
          ],
          error: OK,
        },
      }),
    });
    await renderScreen(<AdminCustomerSearch />);
    fireEvent.change(screen.getByLabelText('Search customers'), { target: { value: 'r' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Search' })));
    expect(screen.getByText('Search must be at least 2 characters')).toBeTruthy();
    expect(server.count('SearchCustomers')).toBe(0);
    fireEvent.change(screen.getByLabelText('Search customers'), { target: { value: 'r-1' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Search' })));
    await settle();
    expect(server.calls[0]?.body).toMatchObject({ query: 'r-1' });
    const table = await screen.findByRole('region', { name: 'Customers table' });
    expect(within(table).getByRole('link', { name: 'casey@example.com' }).getAttribute('href')).toBe(
      `/admin/customers/${USER_ID}`,
    );
    expect(table.textContent).toContain('Robot id');
    expect(table.textContent).toContain('r-123');
  });

  it('says when nothing matches', async () => {
    fakeServer({ SearchCustomers: () => ({ json: { customers: [], error: OK } }) });
    await renderScreen(<AdminCustomerSearch />);
    fireEvent.change(screen.getByLabelText('Search customers'), { target: { value: 'nobody' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Search' })));
    expect(await screen.findByText('No customer matches “nobody”.')).toBeTruthy();
  });
});

describe('customer view', () => {
  const paid = customerPayment();
  const withPayments = customerView({
    payments_visible: true,
    payments: [paid],
    subscriptions: [
      {
        uuid: 'sub-1',
        type: 'user',
        stripe_id: 'sub_1',
        user_id: USER_ID,
        user_email: 'casey@example.com',
        asset_id: '',
        license_id: '',
        duration: 2_592_000,
        created_at: Date.UTC(2026, 9, 1),
        last_updated_at: 0,
        status: 'active',
        stripe_customer_id: '',
        overrideReason: 99,
        cancel_at_period_end: false,
        payment_failed_at: Date.UTC(2026, 10, 1),
        subscription_tier: 'Pro Subscription',
        credits: 0,
      },
    ],
  });

  it('draws the usage chart its route hands in when the customer used minutes, and none without use', async () => {
    const used = customerView({
      usage: {
        from: '2026-10-22',
        to: '2026-11-20',
        time_zone: 'UTC',
        total_minutes: 42,
        robots: [],
        usage: [],
        events: [],
      },
    });
    const drawn: number[] = [];
    const Chart = ({ history }: { history: CustomerView['usage'] }) => {
      drawn.push(history.total_minutes);
      return <p>chart of {history.total_minutes} minutes</p>;
    };
    fakeServer({ GetCustomer: () => ({ json: { customer: used, error: OK } }) });
    const view = await renderScreen(<AdminCustomerView userId={USER_ID} me={staffMe('support')} usageChart={Chart} />);
    const figure = await screen.findByTestId('customer-usage-chart');
    expect(figure.textContent).toContain('Minutes used per day and robot, 2026-10-22 to 2026-11-20');
    expect(figure.textContent).toContain('chart of 42 minutes');
    view.unmount();
    fakeServer({ GetCustomer: () => ({ json: { customer: customerView(), error: OK } }) });
    await renderScreen(<AdminCustomerView userId={USER_ID} me={staffMe('support')} usageChart={Chart} />);
    await screen.findByTestId('customer-minutes');
    expect(screen.queryByTestId('customer-usage-chart')).toBeNull();
    expect(drawn.every((m) => m === 42)).toBe(true);
  });

  it('shows the account whole: profile, subscriptions with past due, slots, dial time', async () => {
    fakeServer({ GetCustomer: () => ({ json: { customer: withPayments, error: OK } }) });
    await renderScreen(<AdminCustomerView userId={USER_ID} me={staffMe('finance')} />);
    expect(await screen.findByRole('heading', { name: 'casey@example.com', level: 1 })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Subscriptions table' }).textContent).toMatch(
      /past due since 2026-11-01/,
    );
    expect(screen.getByTestId('customer-slots').textContent).toBe('Flexible slots: plan 1, grant none, effective 1');
    expect(screen.getByTestId('customer-minutes').textContent).toContain('90 minutes left');
    expect(screen.getByRole('region', { name: 'Payments table' }).textContent).toContain('£49.00');
    // Only a paid plan: nothing for EndSubscription (grants only) to end.
    expect(screen.queryByRole('button', { name: 'End granted subscription' })).toBeNull();
  });

  it.each([
    ['support', false, ['Revoke sessions', 'Grant dial time', 'Export data']],
    [
      'finance',
      true,
      ['Revoke sessions', 'Grant dial time', 'Grant subscription', 'End granted subscription', 'Export data'],
    ],
    [
      'admin',
      true,
      [
        'Disable account',
        'Revoke sessions',
        'Grant dial time',
        'Grant licence',
        'Grant subscription',
        'End granted subscription',
        'Set slot grant',
        'Export data',
        'Delete account',
      ],
    ],
  ] as const)('a %s sees the actions of the role (refund: %s)', async (role, refund, names) => {
    const granted = { ...withPayments.subscriptions[0], uuid: 'sub-2', overrideReason: 2, payment_failed_at: 0 };
    const view = {
      ...withPayments,
      subscriptions: [...withPayments.subscriptions, granted],
      payments_visible: role !== 'support',
    } as CustomerView;
    if (role === 'support') view.payments = [];
    fakeServer({ GetCustomer: () => ({ json: { customer: view, error: OK } }) });
    await renderScreen(<AdminCustomerView userId={USER_ID} me={staffMe(role)} />);
    await screen.findByText('Actions');
    expect(actionNames()).toEqual(names);
    expect(screen.queryByRole('button', { name: `Refund payment ${paid.payment_id}` }) !== null).toBe(refund);
    expect(screen.queryByRole('region', { name: 'Payments table' }) !== null).toBe(role !== 'support');
  });

  it('grant dial time: the reason and the minutes are required, support is told its cap, the fresh state shows', async () => {
    let current = customerView();
    const server = fakeServer({
      GetCustomer: () => ({ json: { customer: current, error: OK } }),
      GrantDialTime: (call) => {
        current = customerView({ time: { ...current.time, total_time: 90 + Number(call.body.minutes) } });
        return { json: { customer: current, error: OK } };
      },
    });
    await renderScreen(<AdminCustomerView userId={USER_ID} me={staffMe('support', { goodwill_max_minutes: 120 })} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Grant dial time' }));
    const dialog = await screen.findByRole('dialog', { name: 'Grant dial time?' });
    expect(dialog.textContent).toContain('Support grants at most 120 minutes at once.');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Grant minutes' })));
    expect(within(dialog).getByText('Reason is required')).toBeTruthy();
    expect(within(dialog).getByText('Minutes is required')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Minutes'), { target: { value: '500' } });
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'ok' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Grant minutes' })));
    expect(within(dialog).getByText('Minutes must be at most 120')).toBeTruthy();
    expect(within(dialog).getByText('Reason must be at least 3 characters')).toBeTruthy();
    expect(within(dialog).getByLabelText('Reason').getAttribute('aria-invalid')).toBe('true');
    expect(server.count('GrantDialTime')).toBe(0);
    fireEvent.change(within(dialog).getByLabelText('Minutes'), { target: { value: '60' } });
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Robot outage on 20 Nov' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Grant minutes' })));
    await settle();
    expect(server.calls.find((c) => c.action === 'GrantDialTime')?.body).toMatchObject({
      user_id: USER_ID,
      minutes: 60,
      reason: 'Robot outage on 20 Nov',
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByText('Dial time granted')).toBeTruthy();
    expect(screen.getByTestId('customer-minutes').textContent).toContain('150 minutes left');
  });

  it('a server refusal of the reason sits under it; another refusal is a toast and the dialog stays', async () => {
    fakeServer({
      GetCustomer: () => ({ json: { customer: customerView(), error: OK } }),
      RevokeSessions: () => ({ status: 403, json: failure(8, 'Your role may not do this') }),
    });
    await renderScreen(<AdminCustomerView userId={USER_ID} me={staffMe('support')} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke sessions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke every session?' });
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Stolen laptop' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke sessions' })));
    await settle();
    expect(await screen.findByText('Sessions not revoked')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Revoke every session?' })).toBeTruthy();
  });

  it('delete waits for the typed email', async () => {
    fakeServer({ GetCustomer: () => ({ json: { customer: customerView(), error: OK } }) });
    await renderScreen(<AdminCustomerView userId={USER_ID} me={staffMe('admin')} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this account?' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete account' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText("The customer's email"), { target: { value: 'casey@example.com' } });
    expect(confirm.disabled).toBe(false);
  });

  it('a refund of part of a payment sends the amount and the reason', async () => {
    const server = fakeServer({
      GetCustomer: () => ({
        json: { customer: { ...customerView(), payments_visible: true, payments: [paid] }, error: OK },
      }),
      RefundPayment: () => ({ json: { customer: customerView(), payment: paid, error: OK } }),
    });
    await renderScreen(<AdminCustomerView userId={USER_ID} me={staffMe('finance')} />);
    fireEvent.click(await screen.findByRole('button', { name: `Refund payment ${paid.payment_id}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund this payment?' });
    fireEvent.change(within(dialog).getByLabelText('Amount (minor units)'), { target: { value: '5000' } });
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Double charge' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' })));
    expect(within(dialog).getByText('Amount (minor units) must be at most 4900')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Amount (minor units)'), { target: { value: '1000' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' })));
    await settle();
    expect(server.calls.find((c) => c.action === 'RefundPayment')?.body).toMatchObject({
      payment_id: paid.payment_id,
      amount: 1000,
      reason: 'Double charge',
    });
  });
});

describe('the reason rule', () => {
  it.each([
    ['', 'Reason is required'],
    ['  ', 'Reason is required'],
    ['ab', 'Reason must be at least 3 characters'],
    [' abc ', undefined],
    ['x'.repeat(500), undefined],
    ['x'.repeat(501), 'Reason must be at most 500 characters'],
  ])('%j → %s', (reason, error) => {
    expect(reasonError(reason)).toBe(error);
  });
});
