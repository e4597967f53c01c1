import type { Db, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { PaymentProvider } from './payment.provider.ts';
import { type IntentRow, type OutboxRow, paymentRepository as repo } from './payment.repository.ts';

/**
 * Intents and the outbox (docs/decisions/066, STYLE 17 and 18).
 *
 * An intent to change money at the provider is a billing_intents row committed before the provider
 * is called; the provider write carries `intentKey(row)`. Work that must follow a commit (cancelling
 * a plan another replaced, at the provider) is an outbox row written in the transaction that decided
 * it, run after the commit and retried with backoff until it succeeds.
 */

/**
 * The idempotency key of a provider write: the intent's row, never the write's parameters, so a
 * repeated intent is a new key and a retried request the same key.
 */
export function intentKey(intent: Pick<IntentRow, 'kind' | 'id'>): string {
  return `portal-${intent.kind}-${intent.id}`;
}

/** What an outbox row does, by kind. */
export const OUTBOX_KINDS = {
  /** cancel a provider subscription now (a plan another plan replaced): payload { subscription_ref } */
  cancelSubscription: 'provider.cancel_subscription',
} as const;

/** The first retry waits a minute, each next one twice as long, at most an hour (deterministic: tests move the clock). */
export const OUTBOX_FIRST_RETRY_MS = 60_000;
export const OUTBOX_MAX_RETRY_MS = 60 * 60_000;
/** Past this many failed attempts a row is logged at error and counted as failing (operators look). */
export const OUTBOX_ALERT_ATTEMPTS = 5;
/** A claimed row is left alone this long by other runners (a run that dies mid-call is retried after it). */
const LEASE_MS = 5 * 60_000;
const BATCH = 50;

/** How long after its `attempts`-th failure a row is tried again. */
export function outboxBackoffMs(attempts: number): number {
  return Math.min(OUTBOX_MAX_RETRY_MS, OUTBOX_FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}

/** The key of the outbox row that cancels a provider subscription: one per subscription. */
/**
 * The provider a subscription id belongs to: the sandbox's (and an unbilled plan's) are the portal's
 * own rows, ended in the database alone; any other is Stripe's.
 */
export function providerOfRef(ref: string): 'sandbox' | 'stripe' {
  return ref.startsWith('sub_sandbox_') || ref.startsWith('sub_unbilled_') ? 'sandbox' : 'stripe';
}

export function cancelSubscriptionKey(ref: string): string {
  return `cancel-sub:${ref}`;
}

/** Where the runner reports: a failure at warn, one that keeps failing at error. */
export interface OutboxLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface OutboxRun {
  done: number;
  failed: number;
}

export class Outbox {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly provider: PaymentProvider,
    private readonly log?: OutboxLog,
  ) {}

  /** Enqueues work in the caller's transaction: it exists if and only if the transaction commits. */
  async enqueue(tx: Executor, kind: string, key: string, payload: Record<string, unknown>): Promise<void> {
    const now = this.clock.now();
    await repo.enqueue(tx, { kind, key, payload, runAfter: now, createdAt: now });
  }

  /**
   * Runs what is due, once each: a row is claimed (leased) before its call, so runners on several
   * instances never call twice at once; a success is done, a failure waits its backoff.
   */
  async run(): Promise<OutboxRun> {
    const run: OutboxRun = { done: 0, failed: 0 };
    const now = this.clock.now();
    for (const row of await repo.dueOutbox(this.db, now, BATCH)) {
      if (!(await repo.claimOutbox(this.db, row.id, now, new Date(now.getTime() + LEASE_MS)))) continue;
      try {
        await this.perform(row);
        await repo.finishOutbox(this.db, row.id, {
          doneAt: this.clock.now(),
          attempts: row.attempts + 1,
          lastError: null,
        });
        run.done += 1;
      } catch (err) {
        const attempts = row.attempts + 1;
        const at = this.clock.now();
        await repo.finishOutbox(this.db, row.id, {
          attempts,
          runAfter: new Date(at.getTime() + outboxBackoffMs(attempts)),
          lastError: String((err as Error)?.message ?? err).slice(0, 500),
        });
        run.failed += 1;
        const detail = { err, kind: row.kind, key: row.key, attempts };
        if (attempts >= OUTBOX_ALERT_ATTEMPTS) this.log?.error(detail, 'outbox work keeps failing');
        else this.log?.warn(detail, 'outbox work failed; retried later');
      }
    }
    return run;
  }

  /** Runs what is due now, never throwing: right after the commit that enqueued, off the answer's path. */
  async runSoon(): Promise<void> {
    try {
      await this.run();
    } catch (err) {
      this.log?.warn({ err }, 'outbox run failed');
    }
  }

  /** Work not done yet that has failed at least `minAttempts` times (operators: ListOutbox). */
  pending(minAttempts = 1): Promise<OutboxRow[]> {
    return repo.pendingOutbox(this.db, minAttempts, 500);
  }

  /** How many rows keep failing (the portal_outbox_failing gauge). */
  async failing(): Promise<number> {
    return (await this.pending(OUTBOX_ALERT_ATTEMPTS)).length;
  }

  byKey(key: string): Promise<OutboxRow | undefined> {
    return repo.outboxByKey(this.db, key);
  }

  private async perform(row: OutboxRow): Promise<void> {
    switch (row.kind) {
      case OUTBOX_KINDS.cancelSubscription: {
        const ref = String(row.payload.subscription_ref ?? '');
        // A sandbox subscription is the portal's own rows, ended already: nothing to call.
        if (!ref || row.payload.provider === 'sandbox') return;
        // Never done silently: a server that no longer talks to that provider keeps the row failing,
        // where operators see it (ListOutbox) and cancel it by hand.
        if (this.provider.kind !== row.payload.provider)
          throw new Error(
            `${ref} is a ${String(row.payload.provider)} subscription; this server uses ${this.provider.kind}: cancel it there by hand`,
          );
        await this.provider.cancelNow(ref);
        return;
      }
      default:
        throw new Error(`no handler for outbox work of kind ${row.kind}`);
    }
  }
}
