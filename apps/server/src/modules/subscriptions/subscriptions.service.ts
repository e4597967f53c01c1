import type { TierName } from '@portal/contract';
import type { Executor } from '../../db/client.ts';
import { subscriptionRepository as repo, type SubscriptionRow, type TierInfo } from './subscriptions.repository.ts';

/**
 * Subscriptions as other modules need them: the tier that decides dial time, and an operator's
 * grant. Methods take the executor so callers can run them inside their own transaction.
 */
export class SubscriptionService {
  /** The user's tier and the period anchor of their dial time; undefined for an unknown user. */
  tierOf(ex: Executor, userId: string, now: Date): Promise<TierInfo | undefined> {
    return repo.tierOf(ex, userId, now);
  }

  /** Ends the user's active subscriptions and starts the granted one (none for Lite). */
  grant(
    ex: Executor,
    input: { userId: string; tier: TierName; overrideKind: number; now: Date; endsAt: Date | null },
  ): Promise<SubscriptionRow | undefined> {
    return repo.grant(ex, input);
  }
}
