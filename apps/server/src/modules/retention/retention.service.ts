import { addYearsUtc, DATA_RETENTION_YEARS, ONE_DAY_MS } from '@portal/contract';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { retentionRepository as repo } from './retention.repository.ts';

/** The advisory lock that makes one instance at a time run the job. */
export const RETENTION_LOCK = 'portal:retention';
/** Outbox work done is kept this long (what happened after a commit, for operators), then deleted. */
const OUTBOX_DONE_KEEP_MS = 30 * ONE_DAY_MS;
/** Rate-limit windows older than this count nothing (the longest window is an hour). */
const RATE_LIMIT_KEEP_MS = ONE_DAY_MS;

export interface RetentionRun {
  /** another instance held the lock: this run did nothing */
  skipped: boolean;
  /** expired rows deleted, by table */
  pruned: {
    refresh_tokens: number;
    sessions: number;
    email_tokens: number;
    login_failures: number;
    rate_limits: number;
    billing_portal_sessions: number;
    outbox_done: number;
  };
  /** rows past retention anonymised (or deleted), by table */
  anonymised: {
    users: number;
    account_leftovers: number;
    support_requests: number;
    checkout_sessions: number;
    payments: number;
    time_ledger: number;
    license_shares: number;
    robots: number;
    lifecycle_notices: number;
    provider_events: number;
    audit_personal: number;
  };
}

/**
 * The retention job (docs/decisions/027): prunes what has expired and anonymises what has passed the
 * privacy policy's two years. One transaction under an advisory lock, so of several instances one
 * runs it and a failure changes nothing.
 */
export class RetentionService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** how long login failures count (LOCKOUT_S) */
    /** how long a login_failures row still counts (the longest of the lock, the failure memory and the known-address window) */
    private readonly loginMemoryS: number,
    /** the audit trail: its personal side rows are anonymised at the end of retention (decision 069) */
    private readonly audit?: AuditService,
  ) {}

  /** The moment before which data is past retention. */
  cutoff(now = this.clock.now()): Date {
    return new Date(addYearsUtc(now.getTime(), -DATA_RETENTION_YEARS));
  }

  async run(): Promise<RetentionRun> {
    const now = this.clock.now();
    const cutoff = this.cutoff(now);
    return this.db.transaction(async (tx) => {
      if (!(await repo.tryLock(tx, RETENTION_LOCK))) return { ...emptyRun(), skipped: true };
      await repo.recordActivity(tx);
      const users = await repo.anonymiseDormantAccounts(tx, cutoff, now);
      const leftovers = await repo.clearAnonymisedAccounts(tx);
      return {
        skipped: false,
        pruned: {
          refresh_tokens: await repo.pruneRefreshTokens(tx, now),
          sessions: await repo.pruneSessions(tx, now),
          email_tokens: await repo.pruneEmailTokens(tx, now),
          login_failures: await repo.pruneLoginFailures(tx, now, new Date(now.getTime() - this.loginMemoryS * 1000)),
          rate_limits: await repo.pruneRateLimits(tx, new Date(now.getTime() - RATE_LIMIT_KEEP_MS)),
          billing_portal_sessions: await repo.pruneBillingPortalSessions(tx, now),
          outbox_done: await repo.pruneDoneOutbox(tx, new Date(now.getTime() - OUTBOX_DONE_KEEP_MS)),
        },
        anonymised: {
          users,
          account_leftovers: leftovers,
          support_requests: await repo.anonymiseSupportRequests(tx, cutoff),
          checkout_sessions: await repo.anonymiseCheckoutSessions(tx, cutoff),
          payments: await repo.anonymisePayments(tx, cutoff),
          time_ledger: await repo.anonymiseLedger(tx, cutoff),
          license_shares: await repo.deleteEndedShares(tx, cutoff),
          robots: await repo.deleteStaleRobots(tx, cutoff),
          lifecycle_notices: await repo.deleteOldNotices(tx, cutoff),
          provider_events: await repo.deleteOldProviderEvents(tx, cutoff),
          audit_personal: (await this.audit?.anonymiseBefore(tx, cutoff)) ?? 0,
        },
      };
    });
  }
}

function emptyRun(): RetentionRun {
  return {
    skipped: false,
    pruned: {
      refresh_tokens: 0,
      sessions: 0,
      email_tokens: 0,
      login_failures: 0,
      rate_limits: 0,
      billing_portal_sessions: 0,
      outbox_done: 0,
    },
    anonymised: {
      users: 0,
      account_leftovers: 0,
      support_requests: 0,
      checkout_sessions: 0,
      payments: 0,
      time_ledger: 0,
      license_shares: 0,
      robots: 0,
      lifecycle_notices: 0,
      provider_events: 0,
      audit_personal: 0,
    },
  };
}

/** Whether a run changed anything (what is worth a log line). */
export function changedAnything(run: RetentionRun): boolean {
  return [...Object.values(run.pruned), ...Object.values(run.anonymised)].some((n) => n > 0);
}
