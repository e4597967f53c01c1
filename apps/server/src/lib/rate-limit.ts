import { ApiError, ONE_DAY_S } from '@portal/contract';
import { lt, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { rateLimits } from '../db/schema.ts';
import type { Clock } from './clock.ts';

/** Refused windows remembered in memory at most; past that the oldest are forgotten (the database still refuses). */
const MAX_REMEMBERED = 10_000;

/**
 * Fixed-window counters in the database, so every server instance shares them. `hit` counts one
 * attempt and throws 429 once the window's limit is passed. Only the actions that are limited call
 * it; reads never touch the table.
 *
 * In front of the database, each instance remembers the windows the database has already refused
 * until they end: a flood past the limit is then refused without a write to the one hot row (a
 * window that is over its limit stays over it, so the answer is the same; docs/performance.md).
 */
export class RateLimiter {
  private readonly refused = new Map<string, number>();
  constructor(
    private readonly db: Executor,
    private readonly clock: Clock,
  ) {}

  async hit(key: string, limit: number, windowS: number, message: string): Promise<void> {
    const now = this.clock.now().getTime();
    const windowStart = new Date(now - (now % (windowS * 1000)));
    const windowEnd = windowStart.getTime() + windowS * 1000;
    const remembered = `${key}\n${windowS}\n${limit}`;
    const refusedUntil = this.refused.get(remembered);
    if (refusedUntil !== undefined) {
      if (now < refusedUntil && now >= refusedUntil - windowS * 1000) throw new ApiError('RATE_LIMITED', message);
      this.refused.delete(remembered);
    }
    const [row] = await this.db
      .insert(rateLimits)
      .values({ key, windowStart, count: 1 })
      .onConflictDoUpdate({
        target: [rateLimits.key, rateLimits.windowStart],
        set: { count: sql`${rateLimits.count} + 1` },
      })
      .returning({ count: rateLimits.count });
    if ((row?.count ?? 0) > limit) {
      if (this.refused.size >= MAX_REMEMBERED) this.refused.delete(this.refused.keys().next().value as string);
      this.refused.set(remembered, windowEnd);
      throw new ApiError('RATE_LIMITED', message);
    }
  }

  /** Drops windows that ended long ago; called now and then, never on a request's path. */
  async prune(olderThanS = ONE_DAY_S): Promise<void> {
    await this.db
      .delete(rateLimits)
      .where(lt(rateLimits.windowStart, new Date(this.clock.now().getTime() - olderThanS * 1000)));
  }
}
