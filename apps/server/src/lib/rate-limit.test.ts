import { ApiError, ONE_DAY_MS } from '@portal/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../db/client.ts';
import { rateLimits } from '../db/schema.ts';
import { freshDatabase, type TestApp, testApp } from '../test/harness.ts';
import { manualClock } from './clock.ts';
import { RateLimiter } from './rate-limit.ts';

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => {
  await database.close();
});

const countOf = async (key: string) =>
  (await database.db.select().from(rateLimits).where(eq(rateLimits.key, key))).length;

describe('rate-limit windows', () => {
  it('prune drops windows that ended over a day ago and keeps current ones', async () => {
    const t = await testApp(database);
    try {
      const { limiter } = t.app.services;
      await limiter.hit('prune-test:old', 10, 60, 'too many');
      t.clock.advance(2 * ONE_DAY_MS);
      await limiter.hit('prune-test:new', 10, 60, 'too many');
      expect(await countOf('prune-test:old')).toBe(1);
      await limiter.prune();
      expect(await countOf('prune-test:old')).toBe(0);
      expect(await countOf('prune-test:new')).toBe(1);
    } finally {
      await t.app.close();
    }
  });

  it('a running app prunes them on its own (the retention job), off the request path', async () => {
    // Only the interval is faked: the database, the app and the test clock keep real time.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let t: TestApp | undefined;
    try {
      t = await testApp(database);
      await t.app.services.limiter.hit('prune-test:periodic', 10, 60, 'too many');
      t.clock.advance(2 * ONE_DAY_MS);
      expect(await countOf('prune-test:periodic')).toBe(1);
      vi.advanceTimersByTime(t.config.RETENTION_INTERVAL_S * 1000);
      await vi.waitFor(async () => expect(await countOf('prune-test:periodic')).toBe(0), { timeout: 5_000 });
    } finally {
      await t?.app.close();
      vi.useRealTimers();
    }
  });

  it('closing the app stops the pruning', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      // The retention job (docs/decisions/027), the subscriptions' lifecycle job (docs/decisions/019)
      // and the live event streams' heartbeat (docs/decisions/031).
      const t = await testApp(database);
      expect(vi.getTimerCount()).toBe(3);
      await t.app.close();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('refused windows are remembered in front of the database', () => {
  const storedCount = async (key: string) =>
    (await database.db.select().from(rateLimits).where(eq(rateLimits.key, key)))[0]?.count;

  it('a flood past the limit writes nothing more; another instance still refuses; the next window allows', async () => {
    const clock = manualClock(new Date('2026-05-01T10:00:00Z'));
    const one = new RateLimiter(database.db, clock);
    const other = new RateLimiter(database.db, clock);
    const hit = (limiter: RateLimiter) =>
      limiter.hit('front-test', 2, 60, 'too many').then(
        () => 'ok',
        (err: unknown) => (err instanceof ApiError ? err.errorName : 'other'),
      );
    expect([await hit(one), await hit(one), await hit(one)]).toEqual(['ok', 'ok', 'RATE_LIMITED']);
    expect(await storedCount('front-test')).toBe(3);
    for (let i = 0; i < 5; i++) expect(await hit(one)).toBe('RATE_LIMITED');
    expect(await storedCount('front-test')).toBe(3);
    // The database stays the shared truth: an instance that never saw the refusal refuses too.
    expect(await hit(other)).toBe('RATE_LIMITED');
    clock.advance(60_000);
    expect(await hit(one)).toBe('ok');
  });
});
