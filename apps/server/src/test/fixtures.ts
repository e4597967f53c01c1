import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AssetType, type ServiceDef, useraction } from '@portal/contract';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Database } from '../db/client.ts';
import { assetRepository } from '../modules/assets/assets.repository.ts';
import type { LicenseService } from '../modules/license/license.service.ts';
import { type Answer, freshDatabase, GOOD_PASSWORD, seedUser, type TestApp, testApp } from './harness.ts';

/** Helpers for the robot, license, dial-time and download tests. */

export const OPERATOR_TOKEN = 'operator-token-for-tests-0123456789abcdef';

const TEMP_PREFIX = join(tmpdir(), 'portal-test-');

/** Configuration of the robotics test apps: an operator credential and a private data folder. */
export function roboticsConfig(overrides: Record<string, string> = {}): Record<string, string> {
  return { OPERATOR_TOKEN, DATA_DIR: mkdtempSync(TEMP_PREFIX), ...overrides };
}

/** Closes a test app and removes the private data folder roboticsConfig gave it. */
export async function closeApp(t: TestApp): Promise<void> {
  await t.app.close();
  if (t.config.dataDir.startsWith(TEMP_PREFIX)) rmSync(t.config.dataDir, { recursive: true, force: true });
}

/** The app a test file shares, with the fresh database it runs on. */
export interface AppUnderTest extends TestApp {
  database: Database;
}

/**
 * Registers the hooks of a test file that shares one robotics app: a fresh migrated database and an
 * app on it (roboticsConfig with these overrides) before the tests, both closed after. The answer is
 * filled in by the beforeAll hook, so read it inside tests and hooks only.
 */
export function useTestApp(overrides: Record<string, string> = {}): AppUnderTest {
  const t = {} as AppUnderTest;
  beforeAll(async () => {
    const database = await freshDatabase();
    Object.assign(t, await testApp(database, roboticsConfig(overrides)), { database });
  });
  afterAll(async () => {
    await closeApp(t);
    await t.database.close();
  });
  return t;
}

export interface SignedIn {
  id: string;
  email: string;
  token: string;
}

/** A portal sign-in through the action client; answers the access token. */
export async function accessToken(t: TestApp, email: string, password: string): Promise<string> {
  const answer = await t.api.client.call(useraction, 'login', { user: { email, password } });
  if (answer.target !== 'portal') throw new Error(`signed in for ${answer.target}, not the portal`);
  return answer.token_pair.access_token;
}

export async function signIn(t: TestApp, opts: { email?: string } = {}): Promise<SignedIn> {
  const user = await seedUser(t, opts);
  return { id: user.id, email: user.email, token: await accessToken(t, user.email, user.password) };
}

/** A new access token for the user (after the test clock moved past the old one's life). */
export async function relogin(t: TestApp, user: SignedIn): Promise<SignedIn> {
  return { ...user, token: await accessToken(t, user.email, GOOD_PASSWORD) };
}

/** A call as the signed-in user, from their own address unless told. */
export function as<S extends ServiceDef>(t: TestApp, user: SignedIn, service: S, ip?: string) {
  return (action: keyof S['actions'] & string, body: Record<string, unknown> = {}): Promise<Answer> =>
    t.api.call(service, action, { email: user.email, ...body }, { bearer: user.token, ...(ip ? { ip } : {}) });
}

/** An operator's call: the x-operator-token header and no session. */
export function asOperator<S extends ServiceDef>(t: TestApp, service: S, token = OPERATOR_TOKEN) {
  return (action: keyof S['actions'] & string, body: Record<string, unknown>): Promise<Answer> =>
    t.api.post(service.path, { action, ...body }, { headers: { 'x-operator-token': token } });
}

let ipCounter = 0;
/** A fresh client address, so per-address limits of one test never touch another. */
export function nextIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

export function licenseService(t: TestApp): LicenseService {
  return t.app.services.licenses;
}

/** An unpaired license for the user, granted directly; answers its id and pairing code. */
export async function grantLicense(t: TestApp, userId: string, model = 'Pepper', durationS?: number) {
  const { license, code } = await licenseService(t).grantRobotLicense(t.app.deps.db, {
    userId,
    model,
    make: model,
    source: 'operator',
    ...(durationS ? { durationS } : {}),
  });
  return { licenseId: license.id, code };
}

export async function driverAsset(
  t: TestApp,
  model: string,
  id = `driver-${model.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
) {
  await assetRepository.upsertAsset(t.app.deps.db, {
    id,
    type: AssetType.RobotDriver,
    name: `${model} driver`,
    make: model,
    model,
  });
  return id;
}

let hardware = 0;
export function hardwareHash(): string {
  hardware += 1;
  return `hw-${hardware}-${Math.random().toString(36).slice(2, 10)}`;
}

/** A 4xx that names the field: the Description starts with `field:`. */
export function expectFieldError(res: Answer, status: number, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.Success).toBe(false);
  expect(res.body.error.Description).toMatch(new RegExp(`(^|; )${field.replace(/[.[\]]/g, '\\$&')}: `));
}

/** Bodies that must never make an action answer 5xx. */
export const JUNK_BODIES: Record<string, unknown>[] = [
  {},
  { email: 42 },
  { license_id: 'not-a-uuid', robot_id: 'not-a-uuid', asset_id: '', pair_code: '!!', minutes: 'x' },
  { license_id: '00000000-0000-0000-0000-000000000000', robot_id: '00000000-0000-0000-0000-000000000000' },
  { robot_licenses: 'x', user_slots: [{ slot_id: -1 }], assets: { artifacts: [] } },
  { duration: 1e20, minutes: 1e20, recipient_email: 'nobody', idempotency_key: '' },
];
