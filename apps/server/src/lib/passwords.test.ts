import { ApiError, ErrorCodes, useraction } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { rateLimits } from '../db/schema.ts';
import { freshDatabase, seedUser, type TestApp, testApp } from '../test/harness.ts';
import { defaultHashConcurrency, HASH_RETRY_AFTER_S, HashGate, hashGate } from './passwords.ts';

/** A piece of work the test finishes when it wants. */
function deferred() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { done, finish };
}

/** Lets queued promise callbacks run (no timers: the gate hands slots over in microtasks). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('HashGate: hashes at once are bounded, the rest queue, past the queue 503', () => {
  it('runs up to the bound, queues in order, refuses past the queue with BUSY and a Retry-After', async () => {
    const gate = new HashGate(2, 1);
    const order: string[] = [];
    const work = [deferred(), deferred(), deferred()];
    const runs = work.map((w, i) =>
      gate.run(async () => {
        order.push(`start ${i}`);
        await w.done;
        return i;
      }),
    );
    await settle();
    expect(gate.load).toEqual({ running: 2, waiting: 1 });
    expect(order).toEqual(['start 0', 'start 1']);

    expect(() => gate.admit()).toThrow(ApiError);
    const refused = await gate.run(async () => 'never').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ errorName: 'BUSY', status: 503, retryAfterS: HASH_RETRY_AFTER_S });

    work[1]!.finish();
    await settle();
    expect(order).toEqual(['start 0', 'start 1', 'start 2']);
    gate.admit();
    expect(gate.load).toEqual({ running: 2, waiting: 0 });
    work[0]!.finish();
    work[2]!.finish();
    expect(await Promise.all(runs)).toEqual([0, 1, 2]);
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  it('a failed hash frees its slot for the next in the queue', async () => {
    const gate = new HashGate(1, 1);
    const first = gate.run(async () => {
      throw new Error('argon2 failed');
    });
    const second = gate.run(async () => 'second ran');
    await expect(first).rejects.toThrow('argon2 failed');
    expect(await second).toBe('second ran');
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  it.each([
    [1, 1],
    [2, 1],
    [3, 2],
    [8, 7],
  ])('by default, %i cores allow %i hashes at once', (cores, expected) => {
    expect(defaultHashConcurrency(cores)).toBe(expected);
  });
});

describe('HASH_CONCURRENCY and HASH_QUEUE_MAX in the configuration', () => {
  const base = {
    NODE_ENV: 'test',
    JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-signing',
    DATA_DIR: '/tmp/portal-test-data',
  };
  const refusal = (env: Record<string, string>) => {
    try {
      loadConfig({ ...base, ...env });
      return undefined;
    } catch (err) {
      if (err instanceof ConfigError) return err.message;
      throw err;
    }
  };

  it('defaults to one less than the cores, at least 1, and a queue of 64', () => {
    const config = loadConfig(base);
    expect(config.HASH_CONCURRENCY).toBe(defaultHashConcurrency());
    expect(config.HASH_CONCURRENCY).toBeGreaterThanOrEqual(1);
    expect(config.HASH_QUEUE_MAX).toBe(64);
    expect(loadConfig({ ...base, HASH_CONCURRENCY: '3', HASH_QUEUE_MAX: '0' })).toMatchObject({
      HASH_CONCURRENCY: 3,
      HASH_QUEUE_MAX: 0,
    });
  });

  it.each([
    ['HASH_CONCURRENCY', '0'],
    ['HASH_CONCURRENCY', '1.5'],
    ['HASH_CONCURRENCY', 'many'],
    ['HASH_QUEUE_MAX', '-1'],
  ])('refuses %s=%s, naming it', (name, value) => {
    expect(refusal({ [name]: value })).toMatch(new RegExp(`^Invalid configuration:\\n  ${name}: `));
  });
});

describe('sign-in behind the bound', () => {
  let database: Database;
  let t: TestApp;
  beforeAll(async () => {
    database = await freshDatabase();
    t = await testApp(database, { HASH_CONCURRENCY: '1', HASH_QUEUE_MAX: '1' });
  });
  afterAll(async () => {
    await t.app.close();
    await database.close();
  });

  const login = (email: string, password: string) =>
    t.api.post('/api/useraction', { action: 'login', user: { email, password } });

  it('waits its turn while the hashers are busy, and answers 503 with Retry-After past the queue', async () => {
    const user = await seedUser(t);
    // The test holds every place the gate hands out (the one hasher's: the hash it works on and the
    // next), so what follows is decided by the bound, not by timing.
    const held = deferred();
    const holding = Promise.all(Array.from({ length: hashGate().concurrency }, () => hashGate().run(() => held.done)));
    expect(hashGate().concurrency).toBe(2);
    await settle();

    const queued = login(user.email, user.password);
    await waitForQueue(1);
    const countsBefore = await rateLimitCount();
    const refused = await login(user.email, user.password);
    expect(refused.status).toBe(503);
    // refused before any other work: not even the per-address sign-in count moved
    expect(await rateLimitCount()).toBe(countsBefore);
    expect(refused.headers['retry-after']).toBe(String(HASH_RETRY_AFTER_S));
    expect(refused.body.error).toMatchObject({ Success: false, Code: ErrorCodes.BUSY.code });

    held.finish();
    await holding;
    const answer = await queued;
    expect(answer.status).toBe(200);
    expect(hashGate().load).toEqual({ running: 0, waiting: 0 });
    // The action client reads the refusal as a transient server failure, not as a wrong password.
    const again = await t.api.client.call(useraction, 'login', {
      user: { email: user.email, password: user.password },
    });
    expect(again.target).toBe('portal');
  });

  const rateLimitCount = async () =>
    (await t.app.deps.db.select({ count: rateLimits.count }).from(rateLimits)).reduce((sum, r) => sum + r.count, 0);

  /** Waits until the gate has `n` sign-ins queued (the sign-in does its database work first). */
  async function waitForQueue(n: number) {
    await vi.waitFor(() => expect(hashGate().load.waiting).toBe(n), { timeout: 20_000, interval: 5 });
  }
});
