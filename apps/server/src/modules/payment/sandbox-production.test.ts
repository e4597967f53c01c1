import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentsRefusal } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { closeApp, roboticsConfig, signIn } from '../../test/fixtures.ts';
import { DEPLOYMENT_ADDRESSES, freshDatabase, type TestApp, testApp, testConfig } from '../../test/harness.ts';
import { billingPage } from '../subscriptions/subscriptions.test-helpers.ts';
import { line, openPage, sessionOf } from './payment.test-helpers.ts';
import { SANDBOX_IN_PRODUCTION } from './sandbox-forms.ts';

/**
 * Production refuses the sandbox unless it is chosen on purpose (issue 31, finding 7): with no Stripe
 * keys and no PAYMENTS_PROVIDER=sandbox the server exits 1 with one line; with it, every sandbox page
 * says in a banner that it is the sandbox in production.
 */
const here = dirname(fileURLToPath(import.meta.url));
const SECRET = randomBytes(48).toString('base64url');

describe('paymentsRefusal', () => {
  it.each([
    [{ NODE_ENV: 'production' }, true],
    [{ NODE_ENV: 'production', PAYMENTS_PROVIDER: 'sandbox' }, false],
    [{ NODE_ENV: 'production', STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' }, false],
    [{ NODE_ENV: 'development' }, false],
    [{ NODE_ENV: 'test' }, false],
  ] as [Record<string, string>, boolean][])('%j refused: %s', (env, refused) => {
    const config = testConfig({ JWT_SECRET: SECRET, ...DEPLOYMENT_ADDRESSES, ...env });
    expect(paymentsRefusal(config) !== undefined).toBe(refused);
  });

  it('PAYMENTS_PROVIDER must agree with the Stripe keys', () => {
    expect(() =>
      testConfig({ PAYMENTS_PROVIDER: 'sandbox', STRIPE_SECRET_KEY: 'sk_test_a', STRIPE_WEBHOOK_SECRET: 'whsec_a' }),
    ).toThrow(/PAYMENTS_PROVIDER: is sandbox but STRIPE_SECRET_KEY is set/);
    expect(() => testConfig({ PAYMENTS_PROVIDER: 'stripe' })).toThrow(/PAYMENTS_PROVIDER: is stripe but/);
  });
});

describe('a production start', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'portal-sandbox-refused-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('with no Stripe keys and no PAYMENTS_PROVIDER=sandbox exits 1 with one line naming what to set', () => {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      JWT_SECRET: SECRET,
      DATA_DIR: dataDir,
      PUBLIC_URL: 'https://portal.example.test',
      PORT: '0',
      ...DEPLOYMENT_ADDRESSES,
    };
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(here, '../../server.ts')], {
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      'NODE_ENV=production with no Stripe keys would sell on the sandbox: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or PAYMENTS_PROVIDER=sandbox to run the sandbox on purpose',
    ]);
    expect(run.stdout).toBe('');
  });
});

describe('the sandbox in production, on purpose', () => {
  let database: Database;
  let t: TestApp;
  beforeAll(async () => {
    database = await freshDatabase();
    t = await testApp(
      database,
      roboticsConfig({
        NODE_ENV: 'production',
        PAYMENTS_PROVIDER: 'sandbox',
        JWT_SECRET: SECRET,
        ...DEPLOYMENT_ADDRESSES,
      }),
    );
  });
  afterAll(async () => {
    await closeApp(t);
    await database.close();
  });

  it('says so in a banner on the checkout page and the billing page', async () => {
    const user = await signIn(t);
    const session = await sessionOf(t, user, [line('prod_time_60', 'price_time_60_member_gbp')]);
    const { res } = await openPage(t, session.session_id);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(SANDBOX_IN_PRODUCTION);
    const missing = await t.app.inject({ method: 'GET', url: '/sandbox/checkout/cs_sandbox_none' });
    expect(missing.body).toContain(SANDBOX_IN_PRODUCTION);
    const billing = await billingPage(t, user);
    expect(billing.page.statusCode).toBe(200);
    expect(billing.page.body).toContain(SANDBOX_IN_PRODUCTION);
  });
});

describe('the sandbox outside production', () => {
  it('has no production banner', async () => {
    const database = await freshDatabase();
    const t = await testApp(database, roboticsConfig({}));
    try {
      const user = await signIn(t);
      const session = await sessionOf(t, user, [line('prod_time_60', 'price_time_60_member_gbp')]);
      const { res } = await openPage(t, session.session_id);
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(SANDBOX_IN_PRODUCTION);
    } finally {
      await closeApp(t);
      await database.close();
    }
  });
});
