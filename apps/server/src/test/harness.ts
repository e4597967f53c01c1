import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { type Client, createClient, type SendOptions } from '@portal/client';
import { describeIssues, type ServiceDef } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import postgres from 'postgres';
import { buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { type Database, type DatabaseOptions, fromPglite, openPostgres } from '../db/client.ts';
import { type Clock, manualClock } from '../lib/clock.ts';
import type { Mail, Mailer } from '../lib/mailer.ts';
import { headerRecord, injectFetch, REMOTE_ADDRESS_HEADER } from './inject-fetch.ts';

/**
 * Server-test helpers. Each test file gets its own freshly migrated database: PGlite in memory by
 * default, or a new database on the PostgreSQL named by TEST_DATABASE_URL (npm test runs both).
 */
export async function freshDatabase(opts: DatabaseOptions = {}): Promise<Database> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const db = fromPglite(new PGlite(), opts);
    await db.migrate();
    return db;
  }
  const name = `portal_test_${randomUUID().replace(/-/g, '')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = openPostgres(url.toString(), 10, opts);
  await db.migrate();
  const close = db.close;
  return {
    ...db,
    async close() {
      await close();
      const again = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await again.unsafe(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

export function memoryMailer(): Mailer & { sent: Mail[]; lastTo(email: string): Mail | undefined } {
  const sent: Mail[] = [];
  return {
    mode: 'outbox',
    sent,
    async send(mail) {
      sent.push(mail);
    },
    lastTo(email) {
      return sent.filter((m) => m.to === email).at(-1);
    },
  };
}

/** A deployment's own web-app addresses: what NODE_ENV=production requires in place of the placeholders. */
export const DEPLOYMENT_ADDRESSES: Readonly<Record<string, string>> = {
  DOCS_URL: 'https://docs.robots.acme.co.uk',
  TUTORIALS_URL: 'https://docs.robots.acme.co.uk/tutorials',
  SUPPORT_URL: 'https://help.robots.acme.co.uk',
  PRIVACY_CONTACT_EMAIL: 'privacy@robots.acme.co.uk',
  PRIVACY_POLICY_EFFECTIVE_DATE: '2026-03-01',
};

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
    PUBLIC_URL: 'http://localhost:3999',
    // Fastify's inject sends Host localhost:80: the name is allowed on any port (a real deployment
    // allows PUBLIC_URL's host; docs/decisions/026).
    ALLOWED_HOSTS: 'localhost,127.0.0.1',
    DATA_DIR: '/tmp/portal-test-data',
    LOG_LEVEL: 'silent',
    RATE_LOGIN_PER_ADDRESS: '10000',
    RATE_FORGOT_PER_ADDRESS: '10000',
    RATE_FORGOT_PER_ACCOUNT: '10000',
    RATE_REGISTER_PER_ADDRESS: '10000',
    // Cheap hashes keep the suite fast; production cost is the default.
    ARGON2_MEMORY_KIB: '1024',
    ARGON2_TIME_COST: '1',
    // A test runs the robot silence sweep itself, on its own clock (RobotService.sweepSilent).
    ROBOT_SWEEP_INTERVAL_S: '0',
    ...overrides,
  });
}

export interface TestApp {
  app: FastifyInstance;
  mailer: ReturnType<typeof memoryMailer>;
  clock: ReturnType<typeof manualClock>;
  config: Config;
  api: ApiClient;
}

export async function testApp(database: Database, overrides: Record<string, string> = {}): Promise<TestApp> {
  const config = testConfig(overrides);
  const clock = manualClock();
  const mailer = memoryMailer();
  const app = await buildApp({ config, database, clock, mailer, logger: false });
  await app.ready();
  return { app, mailer, clock, config, api: new ApiClient(app, clock) };
}

export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T & { error: { Success: boolean; Code: number; Description: string } };
  headers: Record<string, string>;
}

export interface PostOptions extends Omit<SendOptions, 'headers'> {
  headers?: Record<string, string>;
  /** the caller's address (per-address limits and lockout) */
  ip?: string;
}

/**
 * The API as tests see it. The call protocol (CSRF token, Bearer, body) is `@portal/client`'s, over
 * Fastify's inject: `call` and `post` answer the raw HTTP answer so tests can check failures and
 * malformed requests; `client` gives the typed calls of the real callers.
 */
export class ApiClient {
  /** The action client every caller of the portal uses, answering from this app. */
  readonly client: Client;

  constructor(
    app: FastifyInstance,
    private readonly clock: Clock,
  ) {
    const send = injectFetch(app);
    // Mails the server sends after answering (docs/decisions/026) are sent by the time a test reads
    // the answer; the server itself answered without waiting for them.
    const settled: typeof fetch = async (input, init) => {
      const res = await send(input, init);
      await app.services.afterAnswer.settled();
      return res;
    };
    this.client = createClient({ baseUrl: 'http://localhost', fetch: settled });
  }

  csrf(): Promise<string> {
    return this.client.csrf();
  }

  /** One POST as the protocol sends it; `csrf: null` sends none, `raw` sends a body as is. */
  async post(path: string, payload: unknown, opts: PostOptions = {}): Promise<Answer> {
    const { ip, headers, ...send } = opts;
    const res = await this.client.send(path, payload, {
      ...send,
      headers: { ...headers, ...(ip ? { [REMOTE_ADDRESS_HEADER]: ip } : {}) },
    });
    return { status: res.status, body: res.json as Answer['body'], headers: headerRecord(res.headers) };
  }

  /**
   * One action of the contract, answered raw (failures included). A success must match the
   * contract's response schema, so a field the contract requires is one the server always sends.
   */
  async call<S extends ServiceDef>(
    service: S,
    action: keyof S['actions'] & string,
    body: Record<string, unknown>,
    opts: { bearer?: string; ip?: string } = {},
  ): Promise<Answer> {
    const answer = await this.post(service.path, { action, ...body }, opts);
    const def = service.actions[action];
    if (def && answer.status === 200 && answer.body?.error?.Success) {
      const parsed = def.response.safeParse(answer.body);
      if (!parsed.success)
        throw new Error(`${service.path} ${action}: the answer breaks the contract: ${describeIssues(parsed.error)}`);
    }
    return answer;
  }

  now() {
    return this.clock.now();
  }
}

let counter = 0;
/** A unique address per call, so tests sharing a database never collide. */
export function uniqueEmail(label = 'user'): string {
  counter += 1;
  return `${label}-${counter}-${randomUUID().slice(0, 8)}@example.test`;
}

export const GOOD_PASSWORD = 'Robot-Pass-42!';

/** Seeds a user row directly (verified unless told otherwise). */
export async function seedUser(
  t: Pick<TestApp, 'app'>,
  opts: { email?: string; password?: string; verified?: boolean; name?: string } = {},
): Promise<{ id: string; email: string; password: string }> {
  const { hashPassword } = await import('../lib/passwords.ts');
  const { userRepository } = await import('../modules/useraction/useraction.repository.ts');
  const email = opts.email ?? uniqueEmail();
  const password = opts.password ?? GOOD_PASSWORD;
  const row = await userRepository.insert(t.app.deps.db, {
    email,
    passwordHash: await hashPassword(password),
    name: opts.name ?? 'Test User',
    yearBorn: 1990,
    country: 'United Kingdom',
    termsAgreed: true,
    emailValidated: opts.verified ?? true,
  });
  if (!row) throw new Error('seedUser: email taken');
  return { id: row.id, email, password };
}
