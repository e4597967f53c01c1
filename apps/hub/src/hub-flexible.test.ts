import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@portal/client';
import { flexibleLicense, operator, useraction } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './cli.ts';
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
 * A flexible license against the real server and the hub (docs/decisions/022): the portal's
 * UpdateSlots makes it, the hub pairs a robot with its code and dials it unmetered; once the slot is
 * cleared the license is gone, the robot is no longer covered, and dialling it is metered again.
 */

let server: RunningPortal | undefined;
let root: string;

beforeAll(async () => {
  server = await startPortal();
  root = await mkdtemp(join(tmpdir(), 'hub-flexible-'));
}, 120_000);

afterAll(async () => {
  await server?.stop();
  if (root) await rm(root, { recursive: true, force: true });
}, 30_000);

function running(): RunningPortal {
  if (!server) throw new Error('the portal did not start (see the error of beforeAll)');
  return server;
}

describe('a flexible license with the hub', () => {
  it('pairs, covers its robot, and stops covering it once its slot is cleared', { timeout: 90_000 }, async () => {
    const portal = running().url;
    const dir = join(root, 'hub');
    const store = new CredentialsStore(dir);
    const hub = async (...args: string[]) => {
      const stdout: string[] = [];
      const stderr: string[] = [];
      const code = await main([...args, '--config', dir, '--json'], {
        stdout: (line) => stdout.push(line),
        stderr: (line) => stderr.push(line),
        env: {},
        openBrowser: () => false,
      });
      const last = stdout.at(-1);
      return {
        code,
        json: last ? (JSON.parse(last) as Record<string, unknown>) : undefined,
        stderr: stderr.join('\n'),
      };
    };

    const user = await createVerifiedUser(running(), 'Flex Tester');
    // The hub signs in through the portal's sign-in (target hub), as in hub-integration.test.ts.
    const pending = await startHubLogin({ portal, store });
    const answer = await createClient({ baseUrl: portal, origin: portal }).call(useraction, 'login', {
      user: { email: user.email, password: user.password },
      target: 'hub',
      hub_public_key: JSON.stringify(hubKeyFromUrl(pending.url)),
    });
    if (answer.target !== 'hub') throw new Error(`login answered target ${answer.target}`);
    await postForm(new URL(pending.url).searchParams.get('redirect') ?? '', { enc_creds: answer.enc_creds });
    await pending.done;

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
