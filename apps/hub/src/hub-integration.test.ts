import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@portal/client';
import { flexibleLicense, license, operator, time, useraction } from '@portal/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main, NOT_SIGNED_IN, SESSION_OVER } from './cli.ts';
import { HubClient } from './hub-client.ts';
import { CredentialsStore } from './hub-credentials.ts';
import { startHubLogin } from './hub-login.ts';
import {
  createVerifiedUser,
  hubKeyFromUrl,
  operatorClient,
  postForm,
  type RunningPortal,
  signInByApi,
  startPortal,
} from './hub-test-helpers.ts';

/**
 * The hub against the real server, started as its own process and reached over HTTP on loopback:
 * the browser's part of sign-in (the login action with the hub target, then the form post of
 * enc_creds) is played by the test, and everything a test needs on the server (accounts, licenses,
 * dial time) is made through the public API, as a person or an operator would.
 */

let server: RunningPortal | undefined;
let portal: string;
let root: string;
let dir: string;
let store: CredentialsStore;
let dirs = 0;

/** The running server; a test that reaches here after a failed start says so plainly. */
function running(): RunningPortal {
  if (!server) throw new Error('the portal did not start (see the error of beforeAll)');
  return server;
}

// The server starts from the sources and migrates a fresh PGlite database: seconds, more on a busy machine.
beforeAll(async () => {
  server = await startPortal();
  portal = server.url;
  root = await mkdtemp(join(tmpdir(), 'hub-integration-'));
}, 120_000);

// Each test signs in to its own credentials folder, so no test sees another's session.
beforeEach(() => {
  dirs += 1;
  dir = join(root, String(dirs));
  store = new CredentialsStore(dir);
});

afterAll(async () => {
  await server?.stop();
  if (root) await rm(root, { recursive: true, force: true });
}, 30_000);

/** Runs a hub command line against the test server; HUB_* variables of the shell stay out. */
async function hub(...args: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await main([...args, '--config', dir, '--json'], {
    stdout: (line) => stdout.push(line),
    stderr: (line) => stderr.push(line),
    env: {},
    openBrowser: () => false,
  });
  const last = stdout.at(-1);
  return { code, json: last ? (JSON.parse(last) as Record<string, unknown>) : undefined, stderr: stderr.join('\n') };
}

const robotIdOf = (json: Record<string, unknown> | undefined) =>
  (json?.robot as { robot_id?: string } | undefined)?.robot_id;

/** What the portal's sign-in page does from the browser: the same action client, same origin. */
const browserClient = () => createClient({ baseUrl: portal, origin: portal });

/** The portal's sign-in page for `target=hub`: the login action with the hub's key, then the hand-over. */
async function signInThroughPortal(email: string, password: string) {
  const pending = await startHubLogin({ portal, store });
  const redirect = new URL(pending.url).searchParams.get('redirect') ?? '';
  expect(redirect).toBe(pending.callbackUrl);

  const answer = await browserClient().call(useraction, 'login', {
    user: { email, password },
    target: 'hub',
    hub_public_key: JSON.stringify(hubKeyFromUrl(pending.url)),
  });
  // The browser never holds usable hub tokens (ADR 005): the hub target answers enc_creds only.
  if (answer.target !== 'hub') throw new Error(`login answered target ${answer.target}`);
  expect(answer).not.toHaveProperty('token_pair');

  const handOver = await postForm(redirect, { enc_creds: answer.enc_creds });
  return { pending, handOver };
}

describe('hub sign-in against the server', () => {
  it('signs in, shows who is signed in, refreshes, and signs out', { timeout: 60_000 }, async () => {
    const user = await createVerifiedUser(running(), 'Hub Tester');
    // The account as the portal's own sign-in knows it: the hub must end up as the same user.
    const { user: known } = await signInByApi(running(), user);

    const { pending, handOver } = await signInThroughPortal(user.email, user.password);
    expect(handOver.status).toBe(303);
    expect(handOver.headers.get('location')).toBe(`${portal}/auth/complete?success=true`);
    const credentials = await pending.done;
    expect(credentials.user).toEqual({ user_id: known.user_id, email: user.email, name: 'Hub Tester' });
    expect(await store.load()).toEqual(credentials);

    // whoami asks the server (get-self), which rotates the refresh token; the new one is kept.
    const who = await hub('whoami');
    expect(who.code).toBe(0);
    expect(who.json).toMatchObject({
      email: user.email,
      name: 'Hub Tester',
      user_id: known.user_id,
      portal,
      verified: true,
    });
    const afterWhoami = await store.load();
    expect(afterWhoami?.token_pair.refresh_token).not.toBe(credentials.token_pair.refresh_token);

    // Near the access token's expiry the client refreshes and saves the rotated pair.
    if (!afterWhoami) throw new Error('whoami lost the credentials');
    const lifetimeS = afterWhoami.token_pair.access_token_expires_in;
    const late = new HubClient({
      portal,
      credentials: afterWhoami,
      store,
      nowMs: () => Date.now() + (lifetimeS - 20) * 1000,
    });
    await late.remainingTime();
    // Access tokens carry no unique id (one issued in the same second is byte-identical), so the
    // rotation shows in the refresh token.
    const afterRefresh = await store.load();
    expect(afterRefresh?.token_pair.refresh_token).not.toBe(afterWhoami.token_pair.refresh_token);
    expect(afterRefresh?.token_pair).toEqual(late.session.token_pair);
    // The server takes the refreshed access token as a live session: a Bearer call answers 200.
    const access = late.session.token_pair.access_token;
    const checkTime = () =>
      createClient({ baseUrl: portal, origin: portal }).send(
        time.path,
        { action: 'CHECK_REMAINING_TIME', email: user.email },
        { bearer: access },
      );
    const live = await checkTime();
    expect(live.status, JSON.stringify(live.json)).toBe(200);

    const out = await hub('logout');
    expect(out.code).toBe(0);
    expect(out.json).toMatchObject({ signed_out: true, revoked: true });
    expect(await store.load()).toBeUndefined();
    // The session is revoked on the server, not only forgotten here: the same token is now refused.
    const ended = await checkTime();
    expect(ended.status, JSON.stringify(ended.json)).toBe(401);

    const after = await hub('whoami');
    expect(after.code).toBe(1);
    expect(after.stderr).toContain(NOT_SIGNED_IN);
  });

  it('refuses a wrong password at the portal, so nothing reaches the hub', { timeout: 60_000 }, async () => {
    const user = await createVerifiedUser(running());
    const pending = await startHubLogin({ portal, store });
    await expect(
      browserClient().call(useraction, 'login', {
        user: { email: user.email, password: 'wrong-password' },
        target: 'hub',
        hub_public_key: JSON.stringify(hubKeyFromUrl(pending.url)),
      }),
    ).rejects.toMatchObject({ kind: 'unauthenticated', code: 101 });
    pending.cancel();
    expect(await store.load()).toBeUndefined();
  });
});

describe('hub failures, told by kind', () => {
  it('says the session ended once it is revoked, and names the portal it cannot reach', {
    timeout: 60_000,
  }, async () => {
    const user = await createVerifiedUser(running());
    const { pending } = await signInThroughPortal(user.email, user.password);
    const credentials = await pending.done;

    // An unreachable portal: whoami still shows the stored sign-in, other commands fail.
    const closed = 'http://127.0.0.1:1';
    const offline = await hub('whoami', '--portal', closed);
    expect(offline.code).toBe(0);
    expect(offline.json).toMatchObject({ email: user.email, verified: false });
    expect(offline.stderr).toContain(`cannot reach the portal at ${closed}`);
    const unreachable = await hub('time', '--portal', closed);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain(`Cannot reach the portal at ${closed}`);

    // Revoked elsewhere (another copy of the session signed out): the hub says to sign in again.
    await new HubClient({ portal, credentials }).logout();
    const revoked = await hub('whoami');
    expect(revoked.code).toBe(1);
    expect(revoked.stderr).toContain(SESSION_OVER);
    expect(revoked.json?.error).toMatchObject({ Success: false, Description: SESSION_OVER });
  });
});

describe('hub robot commands against the server', () => {
  it('registers, lists, pairs, reports availability and dials', { timeout: 60_000 }, async () => {
    const user = await createVerifiedUser(running());
    const { pending, handOver } = await signInThroughPortal(user.email, user.password);
    expect(handOver.status).toBe(303);
    await pending.done;

    const registered = await hub('robot', 'register', '--make', 'Pepper', '--model', 'Pepper', '--name', 'Lobby');
    expect(registered.code, registered.stderr).toBe(0);
    const robotId = robotIdOf(registered.json) ?? '';
    expect(robotId).not.toBe('');
    // Without --hardware-hash the simulator's identity is derived, so registering again is a no-op.
    const again = await hub('robot', 'register', '--make', 'Pepper', '--model', 'Pepper', '--name', 'Lobby');
    expect(robotIdOf(again.json)).toBe(robotId);

    // An operator grants the Pepper driver; the new robot license and its code are read back as the user.
    await operatorClient(running()).call(license, 'BUYASSET', { email: user.email, asset_id: 'driver-pepper' });
    const { api } = await signInByApi(running(), user);
    const granted = (await api.call(license, 'GetLicences', { email: user.email })).user_licenses?.robot_licenses;
    expect(granted).toHaveLength(1);
    const licenseId = granted?.[0]?.robot_license.license_id ?? '';
    const code = granted?.[0]?.pair_code ?? '';
    expect(code).not.toBe('');
    const before = await hub('robots');
    expect(before.code, before.stderr).toBe(0);
    expect(before.json?.robots).toEqual([
      expect.objectContaining({ license_id: licenseId, paired: false, pair_code: code, robot_id: '' }),
      expect.objectContaining({ license_id: '', robot_id: robotId, name: 'Lobby', paired: false }),
    ]);

    const paired = await hub('robot', 'pair', '--code', code.toLowerCase(), '--robot', robotId);
    expect(paired.code, paired.stderr).toBe(0);
    expect(paired.json?.robot_license).toMatchObject({ robot_id: robotId, paired_status: true, pair_code: '' });
    const on = await hub('robot', 'available', '--robot', robotId, '--on', '--lat=51.5', '--lon=-0.12');
    expect(on.code, on.stderr).toBe(0);
    expect(on.json?.robot).toMatchObject({ robot_state: { available: true, location: { lat: 51.5, lon: -0.12 } } });
    const off = await hub('robot', 'available', '--robot', robotId, '--on', '--lat', '95', '--lon', '0');
    expect(off.code).toBe(1);
    expect(off.json?.error).toMatchObject({ Description: expect.stringMatching(/^robot_state\.location\.lat: /) });

    const after = await hub('robots');
    expect(after.json?.robots).toEqual([
      expect.objectContaining({
        license_id: licenseId,
        robot_id: robotId,
        name: 'Lobby',
        paired: true,
        available: true,
      }),
    ]);

    // Pairing again is refused; the server's Description reaches the user, with exit code 1.
    const reuse = await hub('robot', 'pair', '--code', code, '--robot', robotId);
    expect(reuse.code).toBe(1);
    expect(reuse.json?.error).toMatchObject({
      Success: false,
      Description: expect.stringMatching(/^robot_id: |^pair_code: /),
    });

    const added = await operatorClient(running()).call(time, 'ADD_TIME', {
      email: user.email,
      minutes: 60,
      reason: 'hub test',
    });
    expect(added.user_time.total_durable_time).toBe(60);
    const start = await hub('time');
    expect(start.code, start.stderr).toBe(0);
    const startMinutes = start.json?.remaining_minutes as number;
    expect(startMinutes).toBeGreaterThanOrEqual(60);

    // The paired robot is covered by the user's license, so dialling it is not metered.
    const own = await hub('dial', '--robot', robotId, '--minutes', '5');
    expect(own.code).toBe(1);
    expect(own.json?.error).toMatchObject({ Description: expect.stringMatching(/^robot_id: /) });

    // A registered robot the user holds no license for is metered (an unknown id is refused).
    const unknown = await hub('dial', '--robot', crypto.randomUUID(), '--minutes', '5');
    expect(unknown.code).toBe(1);
    const spare = await hub(
      'robot',
      'register',
      '--make',
      'Pepper',
      '--model',
      'Pepper',
      '--name',
      'Spare',
      '--hardware-hash',
      'hub-test-spare',
    );
    const dialled = await hub('dial', '--robot', robotIdOf(spare.json) ?? '', '--minutes', '5');
    expect(dialled.code, dialled.stderr).toBe(0);
    expect(dialled.json).toMatchObject({ recorded_minutes: 5, remaining_minutes: startMinutes - 5 });
    expect((await hub('time')).json?.remaining_minutes).toBe(startMinutes - 5);
  });
});

describe('a flexible license with the hub (docs/decisions/022)', () => {
  it('pairs, covers its robot, and stops covering it once its slot is cleared', { timeout: 90_000 }, async () => {
    const user = await createVerifiedUser(running(), 'Flex Tester');
    await (await signInThroughPortal(user.email, user.password)).pending.done;

    // One slot from an operator; the portal's screen saves a Nao into it.
    await operatorClient(running()).call(operator, 'SetSlotAmount', { email: user.email, amount: 1 });
    const { api } = await signInByApi(running(), user);
    const saved = await api.call(flexibleLicense, 'UpdateSlots', {
      user_email: user.email,
      user_slots: [{ slot_id: 0, license_id: '', robot_id: 'driver-nao', updated_on: Date.now() }],
    });
    const licenseId = saved.user_slots[0]?.license_id ?? '';
    expect(licenseId).not.toBe('');

    const registered = await hub('robot', 'register', '--make', 'Nao', '--model', 'Nao', '--name', 'Flex Nao');
    expect(registered.code, registered.stderr).toBe(0);
    const robotId = (registered.json?.robot as { robot_id?: string } | undefined)?.robot_id ?? '';
    const listed = (await hub('robots')).json?.robots as { license_id: string; flexible: boolean; pair_code: string }[];
    const flexible = listed.find((r) => r.license_id === licenseId);
    expect(flexible).toMatchObject({ flexible: true, pair_code: expect.stringMatching(/^[A-Z2-9]{8}$/) });

    const paired = await hub('robot', 'pair', '--code', flexible?.pair_code ?? '', '--robot', robotId);
    expect(paired.code, paired.stderr).toBe(0);
    expect(paired.json?.robot_license).toMatchObject({ robot_id: robotId, isFlexible: true, paired_status: true });

    // Covered by the flexible license: dialling it is not metered.
    const start = (await hub('time')).json?.remaining_minutes as number;
    const covered = await hub('dial', '--robot', robotId, '--minutes', '5');
    expect(covered.code).toBe(1);
    expect(covered.json?.error).toMatchObject({
      Description: expect.stringMatching(/^robot_id: .*covered by your license/),
    });

    // Clear All on the portal: the license is gone at once and the hub's robot stands unlicensed.
    await api.call(flexibleLicense, 'ClearSlots', { user_email: user.email });
    const after = (await hub('robots')).json?.robots as { license_id: string; robot_id: string; paired: boolean }[];
    expect(after).toEqual([expect.objectContaining({ license_id: '', robot_id: robotId, paired: false })]);
    const metered = await hub('dial', '--robot', robotId, '--minutes', '5');
    expect(metered.code, metered.stderr).toBe(0);
    expect(metered.json).toMatchObject({ recorded_minutes: 5, remaining_minutes: start - 5 });
  });
});
