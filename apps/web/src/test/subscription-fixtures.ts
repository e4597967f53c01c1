import {
  ONE_DAY_MS,
  ONE_DAY_S,
  type PaymentPrice,
  type PaymentProduct,
  type PaymentProviderSubscription,
  type RobotDriverSubscription,
  type RobotLicense,
  type UserSubscription,
} from '@portal/contract';
import { fakeServer, OK } from './fake-server';

/** Catalogue, subscriptions and licences shaped as the server answers them, for the subscription screens' tests. */

const recurring = (
  id: string,
  unit_amount: number,
  interval: 'month' | 'year',
  currency: 'gbp' | 'usd' = 'gbp',
): PaymentPrice => ({
  id,
  currency,
  unit_amount,
  type: 'recurring',
  recurring: { interval, interval_count: 1 },
});

const oneTime = (id: string, unit_amount: number): PaymentPrice => ({
  id,
  currency: 'gbp',
  unit_amount,
  type: 'one_time',
});

const plan = (id: string, name: string, features: string, prices: PaymentPrice[]): PaymentProduct => ({
  id,
  name,
  description: `${name} plan`,
  metadata: { BOW_SORTING: 'subscription', BOW_FEATURES: features, BOW_TIER: name },
  prices,
});

export const CATALOGUE: PaymentProduct[] = [
  plan('prod_pro', 'Pro Subscription', 'Infinite dial time;3 flexible license slots', [
    recurring('price_pro_usd', 5900, 'month', 'usd'),
    recurring('price_pro_monthly', 4900, 'month'),
    recurring('price_pro_yearly', 49000, 'year'),
  ]),
  plan('prod_lite', 'Lite Subscription', 'Robot Manager;600 dial minutes a year', [
    recurring('price_lite', 0, 'month'),
  ]),
  plan('prod_standard', 'Standard Subscription', 'Robot Manager;3,000 dial minutes a year;1 flexible license slot', [
    recurring('price_standard_monthly', 1500, 'month'),
    recurring('price_standard_yearly', 15000, 'year'),
  ]),
  {
    id: 'prod_driver_nao',
    name: 'Nao driver',
    description: 'A driver',
    metadata: { BOW_SORTING: 'driver', BOW_UUID: 'driver-nao', model: 'Nao' },
    prices: [recurring('price_nao', 9900, 'year')],
  },
  {
    id: 'prod_driver_pepper',
    name: 'Pepper driver',
    description: 'A driver',
    metadata: { BOW_SORTING: 'driver', BOW_UUID: 'driver-pepper', model: 'Pepper' },
    prices: [recurring('price_pepper', 14900, 'year')],
  },
  {
    id: 'prod_time_300',
    name: '300 dial minutes',
    description: 'Durable minutes',
    metadata: { BOW_PRICING: 'onetime', BOW_MINUTES: '300' },
    prices: [oneTime('price_time_300_lite', 5000), oneTime('price_time_300_member', 4000)],
  },
  {
    id: 'prod_time_60',
    name: '60 dial minutes',
    description: 'Durable minutes',
    metadata: { BOW_PRICING: 'onetime', BOW_MINUTES: '60' },
    prices: [oneTime('price_time_60_lite', 1200), oneTime('price_time_60_member', 1000)],
  },
];

export const CREATED = Date.UTC(2025, 0, 5, 14, 5);

export function driverSubscription(over: Partial<RobotDriverSubscription> = {}): RobotDriverSubscription {
  return {
    uuid: 'rds-1',
    type: 'robot_driver',
    stripe_id: 'sub_1',
    user_id: 'u-1',
    user_email: 'ada@example.com',
    asset_id: 'driver-nao',
    license_id: '',
    duration: 365 * ONE_DAY_S,
    created_at: CREATED,
    last_updated_at: CREATED,
    status: 'active',
    stripe_customer_id: 'cus_1',
    overrideReason: 99,
    cancel_at_period_end: false,
    payment_failed_at: 0,
    robot_license_id: 'lic-1',
    credit_used: false,
    credit_entry_uuid: '',
    ...over,
  };
}

export function planSubscription(
  tier: UserSubscription['subscription_tier'],
  over: Partial<UserSubscription> = {},
): UserSubscription {
  return {
    ...driverSubscription({ uuid: `plan-${tier}`, type: 'user', asset_id: '' }),
    subscription_tier: tier,
    credits: 0,
    ...over,
  };
}

export function robotLicense(id: string, robotId: string, pairCode: string, model = 'Nao'): RobotLicense {
  return {
    robot_id: robotId,
    asset_id: `driver-${model.toLowerCase()}`,
    robot_license: {
      license_id: id,
      start_date: CREATED,
      duration: 365 * ONE_DAY_S,
      end_date: CREATED + 365 * ONE_DAY_MS,
    },
    robot_make: model,
    robot_model: model,
    pair_code: pairCode,
    paired_status: Boolean(robotId),
    isFlexible: false,
  };
}

export function providerSubscription(over: Partial<PaymentProviderSubscription> = {}): PaymentProviderSubscription {
  return {
    subscription_id: 'sub_1',
    user_id: 'u-1',
    user_email: 'ada@example.com',
    duration: 365 * ONE_DAY_S,
    starts_at: Date.UTC(2025, 0, 5) / 1000,
    ends_at: Date.UTC(2026, 0, 5) / 1000,
    status: 'active',
    cancel_at_period_end: false,
    payment_method_id: 'pm_1',
    stripe_customer_id: 'cus_1',
    user_subscriptions: [],
    robot_driver_subscriptions: [],
    ...over,
  };
}

/** Where the fake purchase session of `serveDialTime` sends the browser. */
export const CHECKOUT_URL = 'https://checkout.example.test/pay/cs_9';

export type DialTier = 'Lite Subscription' | 'Standard Subscription' | 'Pro Subscription';
type FakeAnswer = { status?: number; json: unknown };

/**
 * A fake server for the dial-time panel and Buy More Time of an account of `tier`: its dial time,
 * its subscriptions, the catalogue and a purchase session; `overrides` replaces any answer.
 */
export function serveDialTime(tier: DialTier, overrides: Record<string, () => FakeAnswer | Promise<FakeAnswer>> = {}) {
  return fakeServer({
    CHECK_REMAINING_TIME: () => ({
      json: {
        error: OK,
        user_time: {
          total_perishable_time: 600,
          used_perishable_time: 100,
          total_durable_time: 60,
          used_durable_time: 0,
          has_infinite_time: tier === 'Pro Subscription',
          subscription_type: tier,
        },
      },
    }),
    GetActiveUserSubscription: () => ({
      json: {
        error: OK,
        user_subscriptions: tier === 'Lite Subscription' ? [] : [planSubscription(tier)],
        overrideReason: 99,
      },
    }),
    GetProducts: () => ({ json: { error: OK, products: CATALOGUE } }),
    HandlePurchase: () => ({
      json: {
        error: OK,
        session: {
          session_id: 'cs_9',
          session_url: CHECKOUT_URL,
          amount: 1200,
          currency: 'gbp',
        },
      },
    }),
    ...overrides,
  });
}
