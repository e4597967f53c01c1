import { adminOverview, OPERATOR_HEADER, OverrideKind, type StaffRole } from '@portal/contract';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  outbox,
  payments,
  providerEvents,
  robotDriverSubscriptions,
  robots,
  subscriptions,
  supportRequests,
  users,
} from '../../db/schema.ts';
import { grantLicense, hardwareHash, useTestApp } from '../../test/fixtures.ts';
import { seedUser } from '../../test/harness.ts';
import { monthlyRevenue } from './admin-overview.service.ts';

/*
 * The overview (issue 35 item 7, docs/decisions/076) over HTTP, on rows this file seeds into its own
 * fresh database: every figure pinned, the revenue above all (monthly and yearly plans, drivers, two
 * currencies; cancelled, expired, granted and demo rows left out).
 */

const t = useTestApp();
type Headers = Record<string, string>;
const callers = {} as Record<StaffRole, Headers> & { financeKey: Headers };

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

beforeAll(async () => {
  for (const role of ['support', 'finance', 'admin'] as const) {
    const user = await seedUser(t);
    await t.app.services.staff.setRole({ userId: user.id, role, by: { kind: 'cli' } });
    const pair = await t.app.services.sessions.start(t.app.deps.db, user, 'portal', undefined, 'passkey');
    callers[role] = { authorization: `Bearer ${pair.access_token}` };
  }
  const key = await t.app.services.staff.createKey({ name: 'books', role: 'finance', by: { kind: 'cli' } });
  callers.financeKey = { [OPERATOR_HEADER]: key.key };

  const db = t.app.deps.db;
  const now = t.clock.now().getTime();
  const at = (ms: number) => new Date(now + ms);
  const customers = await Promise.all(Array.from({ length: 7 }, () => seedUser(t)));
  const [c1, c2, c3, c4, c5, c6, c7] = customers.map((c) => c.id) as [string, ...string[]] as string[];
  // One account joined ten days ago: not new this week.
  await db
    .update(users)
    .set({ joinedAt: at(-10 * DAY) })
    .where(eq(users.id, c7 as string));

  const plan = (
    userId: string,
    tier: 'Standard Subscription' | 'Pro Subscription',
    priceId: string,
    status: 'active' | 'cancelled' | 'expired',
    extra: Partial<typeof subscriptions.$inferInsert> = {},
  ): typeof subscriptions.$inferInsert => ({
    userId,
    tier,
    status,
    overrideKind: OverrideKind.None,
    startsAt: at(-40 * DAY),
    endsAt: at(20 * DAY),
    productId: tier === 'Pro Subscription' ? 'prod_pro' : 'prod_standard',
    priceId,
    ...extra,
  });
  await db.insert(subscriptions).values([
    plan(c1 as string, 'Standard Subscription', 'price_standard_monthly_gbp', 'active'), // 1500
    plan(c2 as string, 'Pro Subscription', 'price_pro_yearly_gbp', 'active'), // 49000 / 12
    plan(c3 as string, 'Standard Subscription', 'price_standard_yearly_gbp', 'active', {
      paymentFailedAt: at(-DAY),
      paymentAttempts: 1,
    }), // 15000 / 12, and a failed renewal
    plan(c4 as string, 'Pro Subscription', 'price_pro_monthly_gbp', 'cancelled'),
    plan(c5 as string, 'Standard Subscription', 'price_standard_monthly_gbp', 'expired'),
    // A grant: counted by tier, paid by nobody.
    plan(c6 as string, 'Pro Subscription', '', 'active', { overrideKind: OverrideKind.BowOverride }),
    // A price the catalogue no longer knows: counted as unpriced, not guessed.
    plan(c7 as string, 'Standard Subscription', 'price_gone', 'active'),
  ]);
  const driver = async (
    userId: string,
    priceId: string,
    status: 'active' | 'cancelled',
    extra: Partial<typeof robotDriverSubscriptions.$inferInsert> = {},
  ) => {
    const { licenseId } = await grantLicense(t, userId, 'Nao');
    await db
      .insert(robotDriverSubscriptions)
      .values({ userId, robotLicenseId: licenseId, durationS: 365 * 86_400, status, priceId, ...extra });
  };
  await driver(c1 as string, 'price_driver_nao_yearly_gbp', 'active'); // 9900 / 12
  await driver(c2 as string, 'price_driver_pepper_yearly_usd', 'active', { paymentFailedAt: at(-HOUR) }); // 17900 / 12
  await driver(c3 as string, 'price_driver_pepper_yearly_usd', 'cancelled');
  await driver(c4 as string, '', 'active'); // a demo or operator row: nobody pays it

  const robot = (available: boolean, lastSeenAt: Date | null): typeof robots.$inferInsert => ({
    userId: c1 as string,
    make: 'Aldebaran',
    model: 'Nao',
    name: 'r',
    hardwareHash: hardwareHash(),
    available,
    lastSeenAt,
  });
  await db
    .insert(robots)
    .values([
      robot(true, at(-HOUR / 60)),
      robot(true, at(-10 * 60_000)),
      robot(false, at(-HOUR / 60)),
      robot(true, null),
    ]);

  const request = (n: number, status: 'new' | 'open' | 'waiting' | 'closed'): typeof supportRequests.$inferInsert => ({
    ticketId: `SR-OVER-${String(n).padStart(4, '0')}`,
    userId: c1 as string,
    email: 'c1@example.test',
    category: 'general',
    subject: 'help',
    message: 'please help',
    status,
  });
  await db
    .insert(supportRequests)
    .values([request(1, 'new'), request(2, 'open'), request(3, 'waiting'), request(4, 'closed'), request(5, 'new')]);

  const payment = (dispute: 'open' | 'won' | null): typeof payments.$inferInsert => ({
    userId: c2 as string,
    provider: 'sandbox',
    kind: 'checkout',
    description: 'Pro',
    lines: [],
    amount: 4900,
    currency: 'gbp',
    status: 'paid',
    disputeStatus: dispute,
    createdAt: at(-DAY),
  });
  await db.insert(payments).values([payment('open'), payment('won'), payment(null)]);

  await db.insert(outbox).values([
    { kind: 'k', key: 'due', payload: {}, runAfter: at(-HOUR), createdAt: at(-HOUR) },
    {
      kind: 'k',
      key: 'failing',
      payload: {},
      attempts: 3,
      lastError: 'provider down',
      runAfter: at(HOUR),
      createdAt: at(-DAY),
    },
    { kind: 'k', key: 'done', payload: {}, runAfter: at(-DAY), doneAt: at(-HOUR), createdAt: at(-DAY) },
  ]);
  await db.insert(providerEvents).values([
    { id: 'evt_recent', type: 'invoice.paid', receivedAt: at(-HOUR) },
    { id: 'evt_old', type: 'invoice.paid', receivedAt: at(-3 * DAY) },
  ]);
});

const overview = (headers: Headers) => t.api.post(adminOverview.path, { action: 'GetOverview' }, { headers });

describe('the overview', () => {
  it('pins every figure for finance: revenue a month by currency, from our own rows', async () => {
    const res = await overview(callers.finance);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { as_of, error, ...figures } = res.body as Record<string, unknown>;
    expect(as_of).toBeGreaterThan(0);
    expect(figures).toEqual({
      // seven customers; the three staff accounts are not customers
      accounts: { total: 7, new_this_week: 6 },
      plans_by_tier: [
        { tier: 'Standard Subscription', paid: 3, granted: 0 },
        { tier: 'Pro Subscription', paid: 1, granted: 1 },
      ],
      revenue_visible: true,
      recurring_revenue: [
        // 1500 + 49000/12 + 15000/12 + 9900/12 = 7658.33…
        { currency: 'gbp', monthly_amount: 7658, plans: 3, drivers: 1 },
        // 17900/12 = 1491.66…
        { currency: 'usd', monthly_amount: 1492, plans: 0, drivers: 1 },
      ],
      unpriced_subscriptions: 1,
      robots_online: 1,
      support_open: { new: 2, open: 1, waiting: 1, total: 4 },
      failed_renewals: { plans: 1, drivers: 1 },
      open_disputes: 1,
      outbox: { due: 1, failing: 1 },
      webhooks: { last_received_at: expect.any(Number), received_last_day: 1 },
    });
    expect((figures.webhooks as { last_received_at: number }).last_received_at).toBeLessThan(as_of as number);
  });

  it('support sees everything but the revenue, with the flag saying so; a finance key and an admin see it', async () => {
    const support = await overview(callers.support);
    expect(support.status).toBe(200);
    expect(support.body.revenue_visible).toBe(false);
    expect(support.body).not.toHaveProperty('recurring_revenue');
    expect(support.body).not.toHaveProperty('unpriced_subscriptions');
    expect(support.body.robots_online).toBe(1);
    for (const headers of [callers.financeKey, callers.admin]) {
      const res = await overview(headers);
      expect(res.body.revenue_visible).toBe(true);
      expect((res.body.recurring_revenue as { monthly_amount: number }[]).map((r) => r.monthly_amount)).toEqual([
        7658, 1492,
      ]);
    }
  });

  it('a customer gets the unknown route', async () => {
    const customer = await seedUser(t);
    const pair = await t.app.services.sessions.start(t.app.deps.db, customer, 'portal');
    const res = await overview({ authorization: `Bearer ${pair.access_token}` });
    expect(res.status).toBe(404);
  });
});

describe('monthly revenue', () => {
  const price = (
    unitAmount: number,
    interval: 'day' | 'week' | 'month' | 'year',
    intervalCount = 1,
    currency = 'gbp',
  ) => ({
    currency,
    unitAmount,
    interval,
    intervalCount,
  });
  it.each([
    ['a monthly price is itself', [{ price: price(1500, 'month'), count: 1, kind: 'plan' as const }], 1500],
    ['a yearly price / 12, rounded half up', [{ price: price(49000, 'year'), count: 1, kind: 'plan' as const }], 4083],
    ['half a minor unit rounds up', [{ price: price(18, 'year'), count: 1, kind: 'plan' as const }], 2],
    ['a quarterly price / 3', [{ price: price(3000, 'month', 3), count: 2, kind: 'plan' as const }], 2000],
    ['a weekly price x 52 / 12', [{ price: price(1200, 'week'), count: 1, kind: 'plan' as const }], 5200],
    [
      'summed exactly before the one rounding (3 x 1/12 would round to 0 each)',
      [{ price: price(1, 'year'), count: 6, kind: 'driver' as const }],
      1,
    ],
  ])('%s', (_what, items, expected) => {
    expect(monthlyRevenue(items)[0]?.monthly_amount).toBe(expected);
  });

  it('keeps currencies apart, largest first', () => {
    expect(
      monthlyRevenue([
        { price: price(100, 'month', 1, 'usd'), count: 1, kind: 'plan' },
        { price: price(900, 'month', 1, 'gbp'), count: 1, kind: 'driver' },
      ]),
    ).toEqual([
      { currency: 'gbp', monthly_amount: 900, plans: 0, drivers: 1 },
      { currency: 'usd', monthly_amount: 100, plans: 1, drivers: 0 },
    ]);
  });
});
