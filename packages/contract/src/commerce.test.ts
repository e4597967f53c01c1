import { describe, expect, it } from 'vitest';
import { assets } from './assets.ts';
import { ONE_DAY_S } from './constants.ts';
import { flexibleLicense } from './flexible-license.ts';
import { license, pairCode } from './license.ts';
import { payment } from './payment.ts';
import { robots } from './robots.ts';
import { services } from './services.ts';
import { time } from './time.ts';

const OK = { Success: true, Code: 0, Description: 'OK' };
const email = 'user@example.com';

describe('the spec/001 services', () => {
  it.each([
    [
      'payment',
      '/api/stripe',
      [
        'GetActiveUserSubscription',
        'GetProducts',
        'GetCustomerID',
        'ListSubscriptions',
        'GetSubscription',
        'HandlePurchase',
        'ConfirmPurchase',
        'CreateBillingPortalSession',
      ],
    ],
    [
      'time',
      '/api/dial_manager',
      [
        'CHECK_REMAINING_TIME',
        'UPDATE_TIME',
        'ADD_TIME',
        'GET_USAGE_HISTORY',
        'GET_SLOTS',
        'UPDATE_SLOTS',
        'CLEAR_SLOTS',
      ],
    ],
    [
      'license',
      '/api/license',
      [
        'GetLicences',
        'GetLicenses',
        'BUYASSET',
        'SHARELICENSE',
        'STOPSHAREDLICENSE',
        'GETSHAREDLICENSES',
        'PAIRROBOT',
        'REGENERATEPAIRCODE',
        'UNPAIR',
      ],
    ],
    ['robots', '/api/robots', ['GetRobots', 'REGISTERSIM', 'UPDATEROBOT', 'UNREGISTER', 'UPDATEMODALITIES']],
    ['assets', '/api/assets', ['GetAll', 'GetDownload']],
    ['flexibleLicense', '/api/flexible_license', ['GetSlots', 'UpdateSlots', 'ClearSlots']],
    [
      'operator',
      '/api/operator',
      [
        'GrantSubscription',
        'SetSlotAmount',
        'ListPayments',
        'RefundPayment',
        'RunLifecycle',
        'EndSubscriptionPeriod',
        'ListOutbox',
        'RunOutbox',
        'RunReconciliation',
        'GetReconciliation',
      ],
    ],
  ] as const)('%s at %s has every action, bearer-authenticated, answering the error object', (name, path, actions) => {
    const svc = services[name];
    expect(svc.path).toBe(path);
    expect(Object.keys(svc.actions).sort()).toEqual([...actions].sort());
    for (const def of Object.values(svc.actions) as {
      auth: string;
      response: { safeParse(v: unknown): { success: boolean } };
    }[]) {
      // Operator actions (BUYASSET, ADD_TIME) are proved by the operator credential, never a portal session.
      expect(def.auth).toBe((def as { caller?: string }).caller === 'operator' ? 'operator' : 'bearer');
      expect(def.response.safeParse({}).success).toBe(false);
    }
  });

  it.each([
    [time.actions.UPDATE_TIME.caller, 'hub'],
    [time.actions.ADD_TIME.caller, 'operator'],
    [license.actions.PAIRROBOT.caller, 'hub'],
    [license.actions.BUYASSET.caller, 'operator'],
    [robots.actions.REGISTERSIM.caller, 'hub'],
    [robots.actions.UPDATEROBOT.caller, 'hub'],
    [robots.actions.UNREGISTER.caller, 'hub'],
    [robots.actions.UPDATEMODALITIES.caller, 'hub'],
    [payment.actions.HandlePurchase.caller, undefined],
  ])('caller %s is %s', (caller, expected) => {
    expect(caller).toBe(expected);
  });
});

describe('HandlePurchase', () => {
  const base = {
    email,
    session: {
      products: [{ id: 'prod_1', selected_price_id: 'price_1', quantity: 2 }],
      success_url: 'https://portal.example/dashboard/cart/success',
      cancel_url: 'https://portal.example/dashboard/cart/cancel',
    },
  };
  const req = payment.actions.HandlePurchase.request;

  it('accepts lines and drops any amount the client adds', () => {
    const parsed = req.parse({
      ...base,
      session: { ...base.session, products: [{ ...base.session.products[0], unit_amount: 1, amount: 1 }] },
    });
    expect(parsed.session.products).toEqual([{ id: 'prod_1', selected_price_id: 'price_1', quantity: 2 }]);
  });

  it.each([
    ['no lines', { products: [] }],
    ['quantity 0', { products: [{ id: 'p', selected_price_id: 'x', quantity: 0 }] }],
    ['fractional quantity', { products: [{ id: 'p', selected_price_id: 'x', quantity: 1.5 }] }],
    ['a script url', { success_url: 'javascript:alert(1)' }],
    ['no price id', { products: [{ id: 'p', quantity: 1 }] }],
  ])('refuses %s', (_name, change) => {
    expect(req.safeParse({ ...base, session: { ...base.session, ...change } }).success).toBe(false);
  });

  it('answers a session url and id', () => {
    const res = payment.actions.HandlePurchase.response.parse({
      session: { session_url: 'https://pay/x', session_id: 'cs_1', amount: 14_900, currency: 'gbp' },
      error: OK,
    });
    expect(res.session?.session_id).toBe('cs_1');
  });

  it('has every payment action live, the subscription actions included', () => {
    const planned = Object.entries(payment.actions)
      .filter(([, def]) => def.status === 'planned')
      .map(([name]) => name);
    expect(planned).toEqual([]);
    expect(payment.status).toBe('live');
    expect(payment.actions.HandlePurchase.status).toBe('live');
  });
});

describe('payment entities', () => {
  it('active subscriptions default to none and override 99', () => {
    expect(payment.actions.GetActiveUserSubscription.response.parse({ error: OK })).toEqual({
      user_subscriptions: [],
      overrideReason: 99,
      error: OK,
    });
  });

  it.each([
    [
      {
        id: 'p',
        currency: 'gbp',
        unit_amount: 1000,
        type: 'recurring',
        recurring: { interval: 'year', interval_count: 1 },
      },
      true,
    ],
    [{ id: 'p', currency: 'gbp', unit_amount: 10.5, type: 'one_time' }, false],
    [{ id: 'p', currency: 'eur', unit_amount: 10, type: 'one_time' }, false],
    [{ id: 'p', currency: 'usd', unit_amount: 10, type: 'one_time', recurring: null }, true],
  ])('price %o valid: %s', (price, valid) => {
    const res = payment.actions.GetProducts.response.safeParse({
      products: [{ id: 'x', name: 'X', prices: [price] }],
      error: OK,
    });
    expect(res.success).toBe(valid);
  });
});

describe('dial manager', () => {
  it('user_time fields default to 0, empty or false', () => {
    const res = time.actions.CHECK_REMAINING_TIME.response.parse({ user_time: {}, error: OK });
    expect(res.user_time).toEqual({
      total_time: 0,
      total_perishable_time: 0,
      used_perishable_time: 0,
      total_durable_time: 0,
      used_durable_time: 0,
      remaining_yearly_time: 0,
      has_infinite_time: false,
      time_status: '',
      warning_message: '',
      current_period_start: 0,
      current_period_end: 0,
      days_until_next_allocation: 0,
      yearly_subscription_end: 0,
      total_yearly_allocation: 0,
      total_yearly_used: 0,
      subscription_type: '',
      payment_failed_at: 0,
    });
  });

  const update = { email, robot_id: 'r1', minutes: 5, idempotency_key: 'hub-1:42' };
  it.each([
    ['a valid report', update, true],
    ['0 minutes', { ...update, minutes: 0 }, false],
    ['fractional minutes', { ...update, minutes: 1.5 }, false],
    ['no idempotency key', { ...update, idempotency_key: undefined }, false],
    ['no robot', { ...update, robot_id: '' }, false],
  ])('UPDATE_TIME: %s', (_name, body, valid) => {
    expect(time.actions.UPDATE_TIME.request.safeParse(body).success).toBe(valid);
  });

  it.each([
    [{ email, minutes: 60, reason: 'Goodwill' }, true],
    [{ email, minutes: 60, reason: ' ' }, false],
  ])('ADD_TIME %o: %s', (body, valid) => {
    expect(time.actions.ADD_TIME.request.safeParse(body).success).toBe(valid);
  });

  it.each([
    [30, true],
    [90, true],
    [365, true],
    [7, false],
    [0, false],
    ['30', false],
    [undefined, false],
  ])('GET_USAGE_HISTORY days %o: %s', (days, valid) => {
    expect(time.actions.GET_USAGE_HISTORY.request.safeParse({ email, days }).success).toBe(valid);
  });
});

describe('flexible slots', () => {
  const slot = (slot_id: number, robot_id = 'nao') => ({
    slot_id,
    license_id: '',
    robot_id,
    updated_on: 1_700_000_000_000,
  });
  it.each([
    ['a valid update', [slot(0), slot(1, '')], true],
    ['a license id', [{ ...slot(0), license_id: 'lic_1' }], false],
    ['a repeated slot', [slot(0), slot(0)], false],
    ['a negative slot', [slot(-1)], false],
  ])('UpdateSlots: %s', (_name, user_slots, valid) => {
    expect(flexibleLicense.actions.UpdateSlots.request.safeParse({ user_email: email, user_slots }).success).toBe(
      valid,
    );
  });

  it('answers user_slots, user_slot_amount and the approved robot ids', () => {
    expect(flexibleLicense.actions.GetSlots.response.parse({ error: OK })).toEqual({
      user_slots: [],
      user_slot_amount: 0,
      approved_robot_ids: [],
      error: OK,
    });
  });
});

describe('licenses and robots', () => {
  it.each([
    [' abcd2345 ', 'ABCD2345'],
    ['WXYZ6789', 'WXYZ6789'],
  ])('pair code %s reads as %s', (input, code) => {
    expect(pairCode.parse(input)).toBe(code);
  });

  it.each(['', 'ab', 'ABCD-2345', 'A'.repeat(17)])('pair code %s is refused', (input) => {
    expect(pairCode.safeParse(input).success).toBe(false);
  });

  it('keeps the spec spelling comission_region', () => {
    const res = license.actions.GetLicences.response.parse({
      user_licenses: {
        email,
        robot_licenses: [
          {
            robot_license: {
              license_id: 'l1',
              start_date: 0,
              duration: 365 * ONE_DAY_S,
              end_date: 0,
              reseller_info: { comission_region: 'EU' },
            },
          },
        ],
      },
      error: OK,
    });
    expect(res.user_licenses?.robot_licenses[0]?.robot_license.reseller_info?.comission_region).toBe('EU');
    expect(res.user_licenses?.shared_robot_licenses).toEqual([]);
  });

  it.each([
    [{ email, license_id: 'l1', recipient_email: 'friend@example.com', duration: ONE_DAY_S }, true],
    [{ email, license_id: 'l1', recipient_email: 'not-an-email', duration: ONE_DAY_S }, false],
    [{ email, license_id: 'l1', recipient_email: 'friend@example.com', duration: 0 }, false],
  ])('SHARELICENSE %o: %s', (body, valid) => {
    expect(license.actions.SHARELICENSE.request.safeParse(body).success).toBe(valid);
  });

  it('GetRobots reads whole licenses', () => {
    const parsed = robots.actions.GetRobots.request.parse({
      email,
      robot_licenses: [{ robot_id: 'r1', pair_code: '', isFlexible: true }],
    });
    expect(parsed.robot_licenses).toEqual([{ robot_id: 'r1' }]);
  });
});

describe('downloads', () => {
  const v = { major: 1, minor: 0, patch: 0, revision: 0 };
  const asset = {
    id: 'hub',
    type: 'application',
    name: 'Hub',
    artifacts: [
      {
        path: 'hub.deb',
        asset_id: 'hub',
        OS: 'linux',
        Arch: 'deb',
        version_info: { sdk: v, client: v, core: v, messaging: v },
        timestamp: 0,
      },
    ],
  };
  const body = { asset_id: 'hub', assets: asset, agreement_version: '2025-01', accepted: true };
  it.each([
    ['accepted', body, true],
    ['not accepted', { ...body, accepted: false }, false],
    ['no agreement version', { ...body, agreement_version: '' }, false],
    ['no artifact', { ...body, assets: { ...asset, artifacts: [] } }, false],
  ])('GetDownload %s: %s', (_name, b, valid) => {
    expect(assets.actions.GetDownload.request.safeParse(b).success).toBe(valid);
  });

  it('an asset without artifacts reads "Invalid asset for download"', () => {
    const res = assets.actions.GetDownload.request.safeParse({ ...body, assets: { ...asset, artifacts: [] } });
    expect(res.error?.issues[0]?.message).toBe('Invalid asset for download');
  });
});
