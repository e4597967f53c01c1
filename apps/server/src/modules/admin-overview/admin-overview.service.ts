import {
  type AdminOverviewAnswer,
  type MonthlyRevenue,
  type PaymentProduct,
  type PriceInterval,
  ROBOT_REPORT_TIMEOUT_MS,
  TIERS,
} from '@portal/contract';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { overviewRepository as repo } from './admin-overview.repository.ts';

const WEEK_MS = 7 * 24 * 3_600_000;
const DAY_MS = 24 * 3_600_000;

/** How many of each interval a year has: a price a month is its amount x this / (12 x interval count). */
const PER_YEAR: Record<PriceInterval, bigint> = { day: 365n, week: 52n, month: 12n, year: 1n };

/** A recurring price as the revenue needs it. */
export interface RecurringPrice {
  currency: string;
  /** minor units */
  unitAmount: number;
  interval: PriceInterval;
  intervalCount: number;
}

/** Active subscriptions at one price. */
export interface PricedCount {
  price: RecurringPrice;
  count: number;
  kind: 'plan' | 'driver';
}

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));

/**
 * Recurring revenue a month by currency (docs/decisions/076): each subscription's price over its
 * interval in months (a yearly price / 12, a quarterly one / 3), summed exactly as fractions and
 * rounded once per currency, half up, to a whole minor unit. Largest first, then by currency.
 */
export function monthlyRevenue(items: readonly PricedCount[]): MonthlyRevenue[] {
  const sums = new Map<string, { num: bigint; den: bigint; plans: number; drivers: number }>();
  for (const { price, count, kind } of items) {
    const sum = sums.get(price.currency) ?? { num: 0n, den: 1n, plans: 0, drivers: 0 };
    const num = BigInt(price.unitAmount) * BigInt(count) * PER_YEAR[price.interval];
    const den = 12n * BigInt(price.intervalCount);
    // sum.num / sum.den + num / den, over the least common denominator
    const lcm = (sum.den / gcd(sum.den, den)) * den;
    sum.num = sum.num * (lcm / sum.den) + num * (lcm / den);
    sum.den = lcm;
    if (kind === 'plan') sum.plans += count;
    else sum.drivers += count;
    sums.set(price.currency, sum);
  }
  return [...sums.entries()]
    .map(([currency, s]) => ({
      currency,
      monthly_amount: Number((2n * s.num + s.den) / (2n * s.den)),
      plans: s.plans,
      drivers: s.drivers,
    }))
    .sort((a, b) => b.monthly_amount - a.monthly_amount || a.currency.localeCompare(b.currency));
}

/** The recurring prices the catalogue knows (replaced ones too: their subscribers still pay them), by id. */
function pricesOf(products: readonly PaymentProduct[]): Map<string, RecurringPrice> {
  const prices = new Map<string, RecurringPrice>();
  for (const product of products)
    for (const price of product.prices)
      if (price.recurring)
        prices.set(price.id, {
          currency: price.currency,
          unitAmount: price.unit_amount,
          interval: price.recurring.interval,
          intervalCount: price.recurring.interval_count,
        });
  return prices;
}

/** The business at a glance (issue 35 item 7): counts of the portal's own rows, now. */
export class OverviewService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** the catalogue's products, replaced prices included (the provider caches it) */
    private readonly products: () => Promise<PaymentProduct[]>,
  ) {}

  async overview(withRevenue: boolean): Promise<AdminOverviewAnswer> {
    const now = this.clock.now();
    const db = this.db;
    const [accounts, tiers, robotsOnline, support, failed, disputes, outbox, webhooks] = await Promise.all([
      repo.accounts(db, new Date(now.getTime() - WEEK_MS)),
      repo.plansByTier(db),
      repo.robotsOnline(db, new Date(now.getTime() - ROBOT_REPORT_TIMEOUT_MS)),
      repo.openSupport(db),
      repo.failedRenewals(db),
      repo.openDisputes(db),
      repo.outbox(db, now),
      repo.webhooks(db, new Date(now.getTime() - DAY_MS)),
    ]);
    const open = (status: string) => support.find((s) => s.status === status)?.n ?? 0;
    const tierCount = (tier: string, paid: boolean) =>
      tiers.filter((t) => t.tier === tier && Boolean(t.paid) === paid).reduce((n, t) => n + t.n, 0);
    return {
      as_of: now.getTime(),
      accounts: { total: accounts.total, new_this_week: accounts.recent },
      plans_by_tier: TIERS.map((tier) => ({
        tier,
        paid: tierCount(tier, true),
        granted: tierCount(tier, false),
      })).filter((t) => t.paid + t.granted > 0),
      revenue_visible: withRevenue,
      ...(withRevenue ? await this.revenue() : {}),
      robots_online: robotsOnline,
      support_open: {
        new: open('new'),
        open: open('open'),
        waiting: open('waiting'),
        total: open('new') + open('open') + open('waiting'),
      },
      failed_renewals: failed,
      open_disputes: disputes,
      outbox,
      webhooks: {
        last_received_at: webhooks.lastAt ? new Date(webhooks.lastAt).getTime() : 0,
        received_last_day: webhooks.recent,
      },
    };
  }

  private async revenue(): Promise<{ recurring_revenue: MonthlyRevenue[]; unpriced_subscriptions: number }> {
    const [plans, drivers, products] = await Promise.all([
      repo.activePlanPrices(this.db),
      repo.activeDriverPrices(this.db),
      this.products(),
    ]);
    const prices = pricesOf(products);
    const items: PricedCount[] = [];
    let unpriced = 0;
    for (const [kind, rows] of [
      ['plan', plans],
      ['driver', drivers],
    ] as const)
      for (const row of rows) {
        const price = prices.get(row.priceId);
        if (price) items.push({ price, count: row.n, kind });
        // A driver row without a price is a demo or operator grant, which nobody pays: not unpriced.
        else if (kind === 'plan' || row.priceId !== '') unpriced += row.n;
      }
    return { recurring_revenue: monthlyRevenue(items), unpriced_subscriptions: unpriced };
  }
}
