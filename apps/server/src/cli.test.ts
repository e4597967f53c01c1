import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { license, time, type UserLicenses, type UserTime } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { runCli, UsageError } from './cli.ts';
import { assetRepository } from './modules/assets/assets.repository.ts';
import { subscriptionRepository } from './modules/subscriptions/subscriptions.repository.ts';
import { buy, PLAN } from './modules/subscriptions/subscriptions.test-helpers.ts';
import { as, driverAsset, signIn, useTestApp } from './test/fixtures.ts';
import { seedUser } from './test/harness.ts';

const t = useTestApp();
let lines: string[] = [];

const cli = async (...argv: string[]) => {
  lines = [];
  await runCli(argv, { db: t.app.deps.db, config: t.config, clock: t.clock, out: (l) => lines.push(l) });
  return lines.join('\n');
};

describe('operator command line', () => {
  it('lists and verifies users', async () => {
    const user = await seedUser(t, { verified: false });
    expect(await cli('users:list')).toContain(`${user.email}\tunverified\tLite`);
    await cli('users:verify', user.email);
    expect(await cli('users:list')).toContain(`${user.email}\tverified`);
  });

  it('grants a subscription, and Lite ends it', async () => {
    const user = await signIn(t);
    expect(await cli('grant-subscription', user.email, 'Pro', '0', '--days', '30')).toContain(
      'Pro Subscription active',
    );
    const tier = await subscriptionRepository.tierOf(t.app.deps.db, user.id, t.clock.now());
    expect(tier?.tier).toBe('Pro');
    expect((await subscriptionRepository.active(t.app.deps.db, user.id, t.clock.now()))[0]?.overrideKind).toBe(0);
    await cli('grant-subscription', user.email, 'lite');
    expect((await subscriptionRepository.tierOf(t.app.deps.db, user.id, t.clock.now()))?.tier).toBe('Lite');
  });

  it('adds durable time', async () => {
    const user = await signIn(t);
    await cli('add-time', user.email, '90', 'apology', 'for', 'downtime');
    const res = await as(t, user, time)('CHECK_REMAINING_TIME');
    expect((res.body.user_time as UserTime).total_durable_time).toBe(90);
  });

  it('grants a license with a pairing code the owner sees', async () => {
    const user = await signIn(t);
    await driverAsset(t, 'Rhino');
    const out = await cli('grant-license', user.email, 'rhino');
    const code = /pairing code ([A-Z2-9]{8})/.exec(out)?.[1];
    const res = await as(t, user, license)('GetLicenses');
    const [lic] = (res.body.user_licenses as UserLicenses).robot_licenses;
    expect(lic).toMatchObject({ robot_model: 'Rhino', pair_code: code, asset_id: 'driver-rhino' });
  });

  it('adds an artifact with its checksum', async () => {
    const file = join(t.config.dataDir, 'hub-setup.exe');
    writeFileSync(file, 'installer bytes');
    const out = await cli('artifacts:add', file, '--os', 'windows', '--arch', 'amd64', '--version', '2.0.1');
    expect(out).toContain('sha256 ');
    const stored = await assetRepository.downloadable(t.app.deps.db);
    expect(stored[0]!.artifacts[0]).toMatchObject({
      fileName: 'hub-setup.exe',
      versionInfo: { sdk: { major: 2, minor: 0, patch: 1, revision: 0 } },
      sizeBytes: 15,
    });
  });

  it('sets slots', async () => {
    const user = await signIn(t);
    await cli('slots:set', user.email, '3');
    const res = await as(t, user, time)('GET_SLOTS', { email: undefined, user_email: user.email });
    expect(res.body.user_slot_amount).toBe(3);
  });

  it.each([
    [['nope']],
    [['users:verify', 'nobody@example.test']],
    [['grant-subscription', 'x@example.test']],
    [['add-time']],
    [['slots:set', 'x']],
    [['artifacts:add', '/no/such/file', '--os', 'windows']],
  ])('refuses %j with a usage error', async (argv) => {
    await expect(cli(...argv)).rejects.toBeInstanceOf(UsageError);
  });

  it('lists payments and refunds one, whole or in part, emailing the customer', async () => {
    const user = await signIn(t);
    await buy(t, user, [PLAN.time60]);
    const listedLine = await cli('payments:list', user.email);
    const id = listedLine.split('\t')[0] ?? '';
    expect(listedLine).toMatch(/\tcheckout\t£12\.00\tpaid\t/);
    const sent: string[] = [];
    const mailer = { mode: 'outbox' as const, send: async (m: { to: string }) => void sent.push(m.to) };
    lines = [];
    await runCli(['refund', id, '200'], {
      db: t.app.deps.db,
      config: t.config,
      clock: t.clock,
      mailer,
      out: (l) => lines.push(l),
    });
    expect(lines.join('\n')).toBe(`${id}: refunded £2.00 of £12.00`);
    expect(await cli('refund', id)).toBe(`${id}: refunded £12.00 of £12.00; what it granted was revoked`);
    expect(sent).toEqual([user.email]);
    await expect(cli('refund', id)).rejects.toThrow(/refunded already/);
    expect(await cli('lifecycle:run')).toMatch(/^lifecycle: \d+ renewed/);
  });

  it('checks argument values', async () => {
    const user = await signIn(t);
    await expect(cli('grant-subscription', user.email, 'Gold')).rejects.toThrow('tier must be');
    await expect(cli('grant-subscription', user.email, 'Pro', '7')).rejects.toThrow('override kind');
    await expect(cli('add-time', user.email, '1.5')).rejects.toThrow('minutes');
    await expect(cli('slots:set', user.email, '101')).rejects.toThrow('slot count');
    const file = join(t.config.dataDir, 'x.deb');
    writeFileSync(file, 'x');
    await expect(cli('artifacts:add', file, '--os', 'linux', '--arch', 'amd64', '--version', '1.0.0')).rejects.toThrow(
      '--arch',
    );
  });
});
