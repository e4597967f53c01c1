import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Client, createClient } from '@portal/client';
import { ONE_DAY_S } from '@portal/contract';
import {
  type Account,
  createVerifiedUser as createVerifiedAccount,
  signInByApi as signInOverApi,
  uniqueEmail,
} from '@portal/testing';
import { CompactEncrypt, importJWK, type JWK } from 'jose';
import type { Credentials, HubCredentialsPayload } from './hub-credentials.ts';

/** Shared by the hub's tests: what the portal would send, and how a browser would post it. */

export function sampleCredentials(overrides: Partial<Credentials> = {}): Credentials {
  return {
    user: { user_id: 'u-1', email: 'ada@example.test', name: 'Ada' },
    token_pair: {
      access_token: 'access.jwt.value',
      refresh_token: 'refresh.jwt.value',
      access_token_expires_in: 900,
      refresh_token_expires_in: 7 * ONE_DAY_S,
    },
    portal: 'http://localhost:3000',
    received_at: 1_700_000_000,
    ...overrides,
  };
}

/** The hub's public key as the portal reads it from the sign-in URL (`hub_key`, base64url JSON). */
export function hubKeyFromUrl(url: string): JWK {
  const hubKey = new URL(url).searchParams.get('hub_key');
  if (!hubKey) throw new Error(`no hub_key in ${url}`);
  return JSON.parse(Buffer.from(hubKey, 'base64url').toString('utf8')) as JWK;
}

/** What the portal's login action does for the hub target (ADR 005). */
export async function encryptForHub(jwk: JWK, payload: HubCredentialsPayload | unknown): Promise<string> {
  const key = await importJWK(jwk, 'ECDH-ES+A256KW');
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: 'ECDH-ES+A256KW', enc: 'A256GCM' })
    .encrypt(key);
}

/** The browser's top-level form POST to the loopback callback; redirects are not followed. */
export function postForm(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

// ---- the real portal, as a separate process ----

/** The repository's root, from this file's place in it (apps/hub/src). */
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A port nothing listens on right now: the system picks one for a moment, then it is freed. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface RunningPortal {
  /** `http://127.0.0.1:<port>`, also its PUBLIC_URL and the Origin its callers send */
  url: string;
  /** the server's DATA_DIR: its database, its jwt-secret and the outbox of the mail it sends */
  dataDir: string;
  /** the server's OPERATOR_TOKEN, for the operator actions (BUYASSET, ADD_TIME) */
  operatorToken: string;
  /** Ends the server (SIGTERM, then SIGKILL if it lingers) and removes its data folder. */
  stop(): Promise<void>;
}

/**
 * Starts the portal's server as its own process (through tsx, from the sources), on a free
 * loopback port with a fresh data folder, and waits until GET /readyz answers 200. The hub is
 * tested over real HTTP against it, importing none of the server's code.
 *
 * SEED_DEMO is on because the demo data is what puts the robot-driver assets (driver-pepper, ...)
 * in the catalog of a fresh install, and BUYASSET can only grant a license for an asset that exists.
 * The demo account is never used by the tests; each makes accounts of its own.
 */
export async function startPortal({ readyTimeoutMs = 90_000 } = {}): Promise<RunningPortal> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'hub-portal-'));
  const operatorToken = randomBytes(32).toString('base64url');
  // Built from scratch rather than copied from this process, so no DATABASE_URL, SMTP_URL,
  // JWT_SECRET or SENTRY_DSN of the developer's shell reaches the server under test.
  const env: Record<string, string> = {
    ...(process.env.PATH ? { PATH: process.env.PATH } : {}),
    ...(process.env.HOME ? { HOME: process.env.HOME } : {}),
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    SEED_DEMO: 'true',
    LOG_LEVEL: 'warn',
    OPERATOR_TOKEN: operatorToken,
    // Cheap password hashing: every test registers and signs in, and the machine is shared.
    ARGON2_MEMORY_KIB: '1024',
    ARGON2_TIME_COST: '1',
    // Every call comes from 127.0.0.1; the limits themselves are the server suite's to test.
    RATE_LOGIN_PER_ADDRESS: '100000',
    RATE_FORGOT_PER_ADDRESS: '100000',
    RATE_FORGOT_PER_ACCOUNT: '100000',
    RATE_REGISTER_PER_ADDRESS: '100000',
    RATE_PAIR_PER_ACCOUNT: '100000',
    RATE_PAIR_PER_ADDRESS: '100000',
    // JWT_SECRET is left unset: outside production the server makes one in its data folder.
  };
  // Its own process group, so stopping it also ends the node process tsx starts for the server.
  const child = spawn(process.execPath, [join(REPO_ROOT, 'node_modules/.bin/tsx'), 'apps/server/src/server.ts'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  // Kept bounded: only the end of a long log helps explain a failure.
  const keep = (text: string, chunk: Buffer) => (text + chunk.toString('utf8')).slice(-64_000);
  child.stdout.on('data', (chunk: Buffer) => {
    stdout = keep(stdout, chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = keep(stderr, chunk);
  });
  const exited = new Promise<number | string | null>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal));
    child.once('error', (err) => resolve(err.message));
  });
  let exit: number | string | null | undefined;
  void exited.then((value) => {
    exit = value;
  });
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  // Should the test process end without its afterAll (a crash, a kill), the server ends with it.
  const onExit = () => signalGroup('SIGKILL');
  process.once('exit', onExit);

  const stop = async () => {
    process.removeListener('exit', onExit);
    if (exit === undefined) {
      signalGroup('SIGTERM');
      const ended = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
      if (!ended) {
        signalGroup('SIGKILL');
        await exited;
      }
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  const output = () => `--- server stderr ---\n${stderr || '(empty)'}\n--- server stdout ---\n${stdout || '(empty)'}`;

  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (exit !== undefined) {
      await stop();
      throw new Error(`The portal exited (${exit}) before it was ready at ${url}\n${output()}`);
    }
    const status = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The portal was not ready at ${url} within ${readyTimeoutMs} ms\n${output()}`);
    }
    await sleep(200);
  }
  return { url, dataDir, operatorToken, stop };
}

// ---- accounts, made through the public API ----

export const TEST_PASSWORD = 'Hub-Robot-Pass-1!';

/** A verified account on the running portal, made as a person makes one (register, emailed link). */
export function createVerifiedUser(portal: RunningPortal, name = 'Hub Tester'): Promise<Account> {
  return createVerifiedAccount(createClient({ baseUrl: portal.url, origin: portal.url }), portal.dataDir, {
    name,
    email: uniqueEmail('hub'),
    password: TEST_PASSWORD,
  });
}

/**
 * A portal sign-in of the test's own (target portal, as the web app signs in), apart from the
 * hub's session: the user as the server knows them and an action client calling as them.
 */
export function signInByApi(portal: RunningPortal, account: Account) {
  return signInOverApi(createClient({ baseUrl: portal.url, origin: portal.url }), account.email, account.password);
}

/** The operator's client: what support staff use for BUYASSET and ADD_TIME. */
export function operatorClient(portal: RunningPortal): Client {
  return createClient({ baseUrl: portal.url, origin: portal.url, operatorToken: portal.operatorToken });
}
