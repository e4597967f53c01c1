import { ApiError } from '@portal/contract';
import { lt, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { rateLimits } from '../db/schema.ts';
import type { Clock } from './clock.ts';

/**
 * Fixed-window counters in the database, so every server instance shares them. `hit` counts one
 * attempt and throws 429 once the window's limit is passed.
 */
export class RateLimiter {
  constructor(
    private readonly db: Executor,
    private readonly clock: Clock,
  ) {}

  async hit(key: string, limit: number, windowS: number, message: string): Promise<void> {
    const now = this.clock.now().getTime();
    const windowStart = new Date(now - (now % (windowS * 1000)));
    const [row] = await this.db
      .insert(rateLimits)
      .values({ key, windowStart, count: 1 })
      .onConflictDoUpdate({
        target: [rateLimits.key, rateLimits.windowStart],
        set: { count: sql`${rateLimits.count} + 1` },
      })
      .returning({ count: rateLimits.count });
    if ((row?.count ?? 0) > limit) throw new ApiError('RATE_LIMITED', message);
  }

  /** Drops windows that ended long ago; called now and then, never on a request's path. */
  async prune(olderThanS = 86_400): Promise<void> {
    await this.db
      .delete(rateLimits)
      .where(lt(rateLimits.windowStart, new Date(this.clock.now().getTime() - olderThanS * 1000)));
  }
}
