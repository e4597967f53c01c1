import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { auth, ErrorCodes, license, time, type UserLicenses, type UserTime, useraction } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { runCli, USAGE, UsageError } from './cli.ts';
import { assetRepository } from './modules/assets/assets.repository.ts';
import { subscriptionRepository } from './modules/subscriptions/subscriptions.repository.ts';
import { buy, PLAN } from './modules/subscriptions/subscriptions.test-helpers.ts';
import { as, driverAsset, signIn, useTestApp } from './test/fixtures.ts';
import { GOOD_PASSWORD, seedUser } from './test/harness.ts';

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

  it('stores a build for a platform Downloads does not offer (Windows on ARM), which the console cannot upload', async () => {
    const file = join(t.config.dataDir, 'hub-setup-arm64.exe');
    writeFileSync(file, 'arm installer bytes');
    const out = await cli('artifacts:add', file, '--os', 'windows', '--arch', 'arm64', '--version', '2.0.2');
    expect(out).toContain('sha256 ');
    const stored = await assetRepository.downloadable(t.app.deps.db);
    expect(stored.flatMap((a) => a.artifacts).map((a) => `${a.os}/${a.arch} ${a.fileName}`)).toContain(
      'windows/arm64 hub-setup-arm64.exe',
    );
  });

  it("sets and clears the slot grant, printing the plan's count, the grant and the count in force", async () => {
    const user = await signIn(t);
    const amount = async () =>
      (await as(t, user, time)('GET_SLOTS', { email: undefined, user_email: user.email })).body.user_slot_amount;
    expect(await cli('slots:set', user.email, '3')).toBe(
      `${user.email}: 3 flexible license slots (plan 0, operator grant 3)`,
    );
    expect(await amount()).toBe(3);
    await cli('grant-subscription', user.email, 'Standard');
    expect(await cli('slots:set', user.email, '--clear')).toBe(
      `${user.email}: 1 flexible license slot (plan 1, no operator grant)`,
    );
    expect(await amount()).toBe(1);
  });

  it.each([
    [['nope']],
    [['users:verify', 'nobody@example.test']],
    [['grant-subscription', 'x@example.test']],
    [['add-time']],
    [['slots:set', 'x']],
    [['slots:set', 'x@example.test', '2', '--clear']],
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
    await expect(cli('slots:set', user.email)).rejects.toThrow('a slot count or --clear');
    await expect(cli('slots:set', user.email, '2', '--clear')).rejects.toThrow('a slot count or --clear');
    const file = join(t.config.dataDir, 'x.deb');
    writeFileSync(file, 'x');
    await expect(cli('artifacts:add', file, '--os', 'linux', '--arch', 'amd64', '--version', '1.0.0')).rejects.toThrow(
      '--arch',
    );
  });
});

describe('operator command line: accounts, sessions, licenses and robots', () => {
  const login = (email: string) => t.api.call(useraction, 'login', { user: { email, password: GOOD_PASSWORD } });
  const refresh = (refresh_token: string) => t.api.call(auth, 'refresh-access-token', { tokenPair: { refresh_token } });
  const checkTime = (email: string, bearer: string) => t.api.call(time, 'CHECK_REMAINING_TIME', { email }, { bearer });
  const forbidden = { status: 403, code: ErrorCodes.FORBIDDEN.code };
  const failure = (res: { status: number; body: { error: { Code: number } } }) => ({
    status: res.status,
    code: res.body.error.Code,
  });

  it('users:disable refuses sign-in, refresh and the live session with 403 FORBIDDEN; users:enable lets it sign in again', async () => {
    const user = await seedUser(t);
    const pair = (await login(user.email)).body.token_pair as { access_token: string; refresh_token: string };
    const bystander = await signIn(t);

    expect(await cli('users:disable', user.email)).toBe(
      `${user.email} is disabled: no sign-in or refresh; its sessions are revoked`,
    );
    expect(await cli('users:list')).toMatch(new RegExp(`${user.email}\tverified\tLite\tjoined [\\d-]+\tdisabled `));
    const refused = await login(user.email);
    expect(failure(refused)).toEqual(forbidden);
    expect(refused.body.error.Description).toMatch(/^Account access is forbidden/);
    expect(refused.body.token_pair).toBeUndefined();
    // A wrong password says what it always says: only the password's owner learns of the disabling.
    const wrong = await t.api.call(useraction, 'login', { user: { email: user.email, password: 'Wrong-Pass-42!' } });
    expect(wrong.status).toBe(401);
    expect(failure(await refresh(pair.refresh_token))).toEqual(forbidden);
    expect((await checkTime(user.email, pair.access_token)).status).toBeGreaterThanOrEqual(401);
    expect((await checkTime(bystander.email, bystander.token)).status).toBe(200);
    expect(await cli('users:disable', user.email)).toContain('(it was already)');

    expect(await cli('users:enable', user.email)).toBe(`${user.email} is enabled`);
    const again = await login(user.email);
    expect(again.status).toBe(200);
    expect((await checkTime(user.email, (again.body.token_pair as { access_token: string }).access_token)).status).toBe(
      200,
    );
    // The sessions it had when disabled stay ended.
    expect((await refresh(pair.refresh_token)).status).toBe(401);
  });

  it('sessions:revoke signs an account out everywhere and leaves other accounts signed in', async () => {
    const user = await seedUser(t);
    const first = (await login(user.email)).body.token_pair as { access_token: string; refresh_token: string };
    const second = (await login(user.email)).body.token_pair as { access_token: string; refresh_token: string };
    const bystander = await signIn(t);
    expect(await cli('sessions:revoke', user.email)).toBe(
      `${user.email}: 2 live sessions revoked; signed out everywhere`,
    );
    for (const pair of [first, second]) {
      expect((await refresh(pair.refresh_token)).status).toBe(401);
      expect((await checkTime(user.email, pair.access_token)).status).toBe(401);
    }
    expect((await checkTime(bystander.email, bystander.token)).status).toBe(200);
    expect((await login(user.email)).status).toBe(200);
    expect(await cli('sessions:revoke', user.email)).toBe(
      `${user.email}: 1 live session revoked; signed out everywhere`,
    );
  });

  it("licenses:list and robots:list show an account's licenses and robots", async () => {
    const user = await signIn(t);
    expect(await cli('licenses:list', user.email)).toBe(`${user.email}: no licenses`);
    expect(await cli('robots:list', user.email)).toBe(`${user.email}: no robots`);
    const granted = await cli('grant-license', user.email, 'Pepper');
    const code = /pairing code ([A-Z2-9]{8})/.exec(granted)?.[1];
    const robot = await t.app.services.robots.register(
      { userId: user.id, email: user.email },
      { make: 'SoftBank', model: 'Pepper', name: 'Front desk', hardwareHash: 'hw-cli-1' },
    );

    const unpaired = await cli('licenses:list', user.email);
    expect(unpaired).toMatch(new RegExp(`^[0-9a-f-]{36}\tPepper\tunpaired, code ${code}\t[\\d-]+ to [\\d-]+\town$`));
    expect(await cli('robots:list', user.email)).toMatch(
      new RegExp(`^${robot.robot_id}\tSoftBank Pepper\tFront desk\tunavailable\tno license\tregistered [\\d-]+$`),
    );
    const licenseId = unpaired.split('\t')[0];
    await t.app.services.licenses.pair(
      { userId: user.id, email: user.email },
      { pairCode: code!, robotId: robot.robot_id },
    );
    expect(await cli('licenses:list', user.email)).toMatch(
      new RegExp(`^${licenseId}\tPepper\tpaired to ${robot.robot_id}\t[\\d-]+ to [\\d-]+\town$`),
    );
    expect(await cli('robots:list', user.email)).toContain(`\tlicense ${licenseId}\t`);
    const other = await signIn(t);
    expect(await cli('robots:list', other.email)).toBe(`${other.email}: no robots`);
    await expect(cli('licenses:list', 'nobody@example.test')).rejects.toBeInstanceOf(UsageError);
  });

  it('--help and help print the usage, naming every command', async () => {
    expect(await cli('--help')).toBe(USAGE);
    expect(await cli('help')).toBe(USAGE);
    expect(await cli('users:disable', '--help')).toBe(USAGE);
    for (const command of ['users:disable', 'users:enable', 'sessions:revoke', 'licenses:list', 'robots:list'])
      expect(USAGE).toContain(`  ${command} <email>`);
  });

  it("is the package's portal-admin bin, built to dist/cli.js, and runs as a program through a link of that name", () => {
    const here = fileURLToPath(new URL('.', import.meta.url));
    const pkg = JSON.parse(readFileSync(join(here, '../package.json'), 'utf8'));
    expect(pkg.bin).toEqual({ 'portal-admin': 'dist/cli.js' });
    expect(readFileSync(join(here, '../build.mjs'), 'utf8')).toMatch(/entryPoints: \[[^\]]*'src\/cli\.ts'/);
    expect(readFileSync(join(here, 'cli.ts'), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    // npm links a bin under its own name: the program must still know it is the program.
    const bin = join(mkdtempSync(join(tmpdir(), 'portal-admin-')), 'portal-admin');
    symlinkSync(join(here, 'cli.ts'), bin);
    const printed = execFileSync(process.execPath, ['--import', 'tsx', bin, '--help'], { encoding: 'utf8' });
    expect(printed.trim()).toBe(USAGE.trim());
  });
});
