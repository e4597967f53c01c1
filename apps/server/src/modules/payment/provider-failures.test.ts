import { ErrorCodes, payment } from '@portal/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import type { Database } from '../../db/client.ts';
import { manualClock } from '../../lib/clock.ts';
import { as, closeApp, roboticsConfig, type SignedIn, signIn } from '../../test/fixtures.ts';
import { ApiClient, freshDatabase, memoryMailer, type TestApp, testConfig } from '../../test/harness.ts';
import { type StandIn, startStripeStandIn } from '../../test/stripe-stand-in.ts';
import { loadCatalogue } from './catalogue.ts';
import { CANCEL, PUBLIC, SUCCESS } from './payment.test-helpers.ts';

/**
 * Provider failures are the provider's (issue 31, finding 3; docs/decisions/064): a Stripe that
 * refuses the key answers 502, a Stripe that never answers 503 once STRIPE_TIMEOUT_MS has passed,
 * never a 401/403 the web client would take for an expired session; logged at error with Stripe's
 * request id. The test checks the answers and the log line, not the duration.
 */
const KEY = 'sk_test_standin0123456789';
const lines: Record<string, unknown>[] = [];
let standIn: StandIn;
let database: Database;
const t = {} as TestApp;
beforeAll(async () => {
  standIn = await startStripeStandIn(loadCatalogue());
  database = await freshDatabase();
  const clock = manualClock();
  const config = testConfig(
    roboticsConfig({
      STRIPE_SECRET_KEY: KEY,
      STRIPE_WEBHOOK_SECRET: 'whsec_failures0123456789',
      STRIPE_API_BASE: standIn.url,
      STRIPE_TIMEOUT_MS: '200',
      STRIPE_MAX_RETRIES: '1',
      LOG_LEVEL: 'info',
      LOG_REQUESTS: 'false',
    }),
  );
  const mailer = memoryMailer();
  const app = await buildApp({
    config,
    database,
    clock,
    mailer,
    logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
  });
  await app.ready();
  Object.assign(t, { app, mailer, clock, config, api: new ApiClient(app, clock) });
});
afterAll(async () => {
  await closeApp(t);
  await database.close();
  await standIn.close();
});
beforeEach(() => {
  standIn.revokedKeys.clear();
  standIn.hanging.clear();
});

const providerLines = () => lines.filter((l) => l.msg === 'payment provider failed');

const calls: [
  string,
  (user: SignedIn) => Promise<{ status: number; body: Record<string, unknown>; headers: Record<string, string> }>,
][] = [
  ['GetProducts', (user) => as(t, user, payment)('GetProducts', {})],
  ['GetCustomerID', (user) => as(t, user, payment)('GetCustomerID', {})],
  [
    'HandlePurchase',
    (user) =>
      as(
        t,
        user,
        payment,
      )('HandlePurchase', {
        session: {
          products: [{ id: 'prod_time_60', selected_price_id: 'price_unused', quantity: 1 }],
          success_url: SUCCESS,
          cancel_url: CANCEL,
        },
      }),
  ],
  [
    'CreateBillingPortalSession',
    (user) => as(t, user, payment)('CreateBillingPortalSession', { return_url: `${PUBLIC}/dashboard` }),
  ],
];

describe('a revoked Stripe key', () => {
  it.each(calls)('%s answers 502, not 401, and logs Stripe’s request id at error', async (_, call) => {
    const user = await signIn(t);
    standIn.revokedKeys.add(KEY);
    const before = providerLines().length;
    const res = await call(user);
    expect(res.status).toBe(502);
    const error = res.body.error as { Code: number; Description: string };
    expect(error.Code).toBe(ErrorCodes.UNAVAILABLE.code);
    expect(error.Description).toMatch(
      /^The payment provider could not complete this, please try again later \(request [0-9a-f-]{36}\)$/,
    );
    expect(error.Description).not.toMatch(/sk_test|API Key/);
    const logged = providerLines().slice(before);
    expect(logged).toEqual([
      expect.objectContaining({
        level: 50,
        provider: expect.objectContaining({
          provider: 'stripe',
          failure: 'error',
          type: 'StripeAuthenticationError',
          status: 401,
          requestId: expect.stringMatching(/^req_/),
        }),
      }),
    ]);
    expect(error.Description).toContain(String(logged[0]?.reqId));
  });
});

describe('a Stripe that never answers', () => {
  it.each([
    ['GetProducts', '/v1/products', (calls[0] as (typeof calls)[number])[1]],
    ['GetCustomerID', '/v1/customers', (calls[1] as (typeof calls)[number])[1]],
  ] as const)(
    '%s answers 503 with Retry-After once STRIPE_TIMEOUT_MS has passed, and logs the timeout',
    async (_, path, call) => {
      const user = await signIn(t);
      standIn.hanging.add(path);
      const before = providerLines().length;
      const res = await call(user);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('120');
      const error = res.body.error as { Code: number; Description: string };
      expect(error.Code).toBe(ErrorCodes.UNAVAILABLE.code);
      expect(error.Description).toMatch(
        /^Payments are unavailable right now, please try again in a few minutes \(request [0-9a-f-]{36}\)$/,
      );
      expect(providerLines().slice(before)).toEqual([
        expect.objectContaining({
          level: 50,
          provider: expect.objectContaining({ failure: 'timeout', type: 'StripeConnectionError' }),
        }),
      ]);
    },
  );
});

describe('STRIPE_TIMEOUT_MS and STRIPE_MAX_RETRIES', () => {
  it('default to giving up on a silent Stripe within about 10 s', () => {
    const config = testConfig({});
    expect(config).toMatchObject({ STRIPE_TIMEOUT_MS: 3_000, STRIPE_MAX_RETRIES: 2 });
    // Each retry waits 0.5 to 1 s first (the SDK's backoff): 3 x 3 s + 1.5 s at most.
    expect(
      (config.STRIPE_MAX_RETRIES + 1) * config.STRIPE_TIMEOUT_MS + config.STRIPE_MAX_RETRIES * 750,
    ).toBeLessThanOrEqual(10_500);
  });

  it.each([
    [{ STRIPE_TIMEOUT_MS: '0' }, 'STRIPE_TIMEOUT_MS: Too small'],
    [{ STRIPE_MAX_RETRIES: '11' }, 'STRIPE_MAX_RETRIES: Too big'],
  ])('%j is refused', (env, message) => {
    expect(() => testConfig(env)).toThrow(message);
  });
});
