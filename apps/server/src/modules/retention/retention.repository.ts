import { type SQL, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.ts';

/**
 * The statements of the retention job (docs/decisions/027). They span every module's tables on
 * purpose: the policy reads as one list, in one place, and runs in one transaction. Each answers
 * how many rows it changed. Times go in as ISO strings (a JS Date inside sql`` breaks postgres.js).
 */

/** Where anonymised accounts point their address: a reserved domain that can receive no mail. */
export const ANONYMISED_DOMAIN = 'anonymised.invalid';
export const ANONYMISED_TEXT = 'Anonymised';

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

async function count(ex: Executor, statement: SQL): Promise<number> {
  const result = (await ex.execute(
    sql`with changed as (${statement} returning 1) select count(*)::int as n from changed`,
  )) as unknown;
  const rows = rowsOf<{ n: number }>(result);
  return Number(rows[0]?.n ?? 0);
}

export const retentionRepository = {
  /** Takes the job's lock for the transaction; false when another instance holds it. */
  async tryLock(tx: Executor, key: string): Promise<boolean> {
    const result = (await tx.execute(
      sql`select pg_try_advisory_xact_lock(hashtextextended(${key}, 0)) as locked`,
    )) as unknown;
    const rows = rowsOf<{ locked: boolean }>(result);
    return rows[0]?.locked === true;
  },

  /** Copies the newest token issue of each account into users.last_active_at before the tokens go. */
  recordActivity(ex: Executor): Promise<number> {
    return count(
      ex,
      sql`update users u set last_active_at = seen.latest
          from (select s.user_id, max(r.issued_at) as latest
                from refresh_tokens r join sessions s on s.id = r.session_id group by s.user_id) seen
          where seen.user_id = u.id and (u.last_active_at is null or u.last_active_at < seen.latest)`,
    );
  },

  // ---- expired rows: pruned as soon as they serve nothing ----

  pruneRefreshTokens: (ex: Executor, now: Date) =>
    count(ex, sql`delete from refresh_tokens where expires_at < ${at(now)}`),
  pruneSessions: (ex: Executor, now: Date) => count(ex, sql`delete from sessions where expires_at < ${at(now)}`),
  pruneEmailTokens: (ex: Executor, now: Date) => count(ex, sql`delete from email_tokens where expires_at < ${at(now)}`),
  /**
   * A row untouched for longer than it can matter (failures forgotten, lock ended, and no sign-in
   * recent enough to make its address a known one) holds nothing.
   */
  pruneLoginFailures: (ex: Executor, now: Date, periodStart: Date) =>
    count(
      ex,
      sql`delete from login_failures
          where updated_at < ${at(periodStart)} and (locked_until is null or locked_until < ${at(now)})`,
    ),
  pruneRateLimits: (ex: Executor, before: Date) =>
    count(ex, sql`delete from rate_limits where window_start < ${at(before)}`),
  pruneBillingPortalSessions: (ex: Executor, now: Date) =>
    count(ex, sql`delete from billing_portal_sessions where expires_at < ${at(now)}`),

  /** Outbox work done before `before` (decision 066): what keeps failing stays for operators. */
  pruneDoneOutbox: (ex: Executor, before: Date) =>
    count(ex, sql`delete from outbox where done_at is not null and done_at < ${at(before)}`),

  // ---- past retention: anonymised (or deleted where nothing is left once anonymised) ----

  /**
   * Accounts unused since the cutoff and with nothing in force: no sign-in, refresh or profile
   * change, no subscription or license running past it, no payment, checkout or support request
   * after it, and no durable dial time left (minutes paid for never expire: an account holding them
   * is kept so its owner can come back to them). Their personal fields are overwritten; the row
   * stays, so what refers to it (ledger, payments, licenses) stays consistent and anonymous.
   */
  anonymiseDormantAccounts(ex: Executor, cutoff: Date, now: Date): Promise<number> {
    const c = at(cutoff);
    return count(
      ex,
      sql`update users u set
            email = 'anonymised-' || u.id || ${`@${ANONYMISED_DOMAIN}`},
            password_hash = '!anonymised',
            name = ${ANONYMISED_TEXT}, year_born = -1, country = '', company = '', profession = '',
            marketing = false, email_validated = false, updated_at = ${at(now)}
          where u.email not like ${`%@${ANONYMISED_DOMAIN}`}
            and greatest(u.joined_at, u.updated_at, coalesce(u.last_active_at, u.joined_at)) < ${c}
            and not exists (select 1 from sessions s where s.user_id = u.id and s.expires_at >= ${c})
            and not exists (select 1 from subscriptions s where s.user_id = u.id and (s.status = 'active' or s.ends_at >= ${c}))
            and not exists (select 1 from robot_driver_subscriptions s where s.user_id = u.id and (s.status = 'active' or s.updated_at >= ${c}))
            and not exists (select 1 from robot_licenses l where l.user_id = u.id and l.ends_at >= ${c})
            and not exists (select 1 from payments p where p.user_id = u.id and p.created_at >= ${c})
            and not exists (select 1 from checkout_sessions k where k.user_id = u.id and k.created_at >= ${c})
            and not exists (select 1 from support_requests r where r.user_id = u.id and r.created_at >= ${c})
            and coalesce((select sum(t.durable) from time_ledger t where t.user_id = u.id), 0) <= 0`,
    );
  },

  /** What an anonymised account still held that names or reaches a person. */
  async clearAnonymisedAccounts(ex: Executor): Promise<number> {
    const anonymised = sql`(select id from users where email like ${`%@${ANONYMISED_DOMAIN}`})`;
    return (
      (await count(ex, sql`delete from sessions where user_id in ${anonymised}`)) +
      (await count(ex, sql`delete from email_tokens where user_id in ${anonymised}`)) +
      // An anonymised account signs in no more: its passkeys go (docs/decisions/032), and what it signed in from.
      (await count(ex, sql`delete from passkeys where user_id in ${anonymised}`)) +
      (await count(ex, sql`delete from webauthn_challenges where user_id in ${anonymised}`)) +
      (await count(ex, sql`delete from known_browsers where user_id in ${anonymised}`)) +
      (await count(
        ex,
        sql`update payment_customers set billing = null, card_last4 = null
            where user_id in ${anonymised} and (billing is not null or card_last4 is not null)`,
      )) +
      (await count(
        ex,
        sql`delete from robots r where r.user_id in ${anonymised}
            and not exists (select 1 from robot_licenses l where l.robot_id = r.id)`,
      ))
    );
  },

  anonymiseSupportRequests: (ex: Executor, cutoff: Date) =>
    count(
      ex,
      sql`update support_requests set email = '', subject = ${ANONYMISED_TEXT}, message = ${ANONYMISED_TEXT}, robot_model = null
          where created_at < ${at(cutoff)} and email <> ''`,
    ),
  anonymiseCheckoutSessions: (ex: Executor, cutoff: Date) =>
    count(
      ex,
      sql`update checkout_sessions set user_email = '', billing = null
          where created_at < ${at(cutoff)} and (user_email <> '' or billing is not null)`,
    ),
  anonymisePayments: (ex: Executor, cutoff: Date) =>
    count(ex, sql`update payments set billing = null where created_at < ${at(cutoff)} and billing is not null`),
  /** Which robot was dialled, for use older than the cutoff; the minutes stay, so balances do not move. */
  anonymiseLedger: (ex: Executor, cutoff: Date) =>
    count(ex, sql`update time_ledger set robot_id = null where created_at < ${at(cutoff)} and robot_id is not null`),
  deleteEndedShares: (ex: Executor, cutoff: Date) =>
    count(ex, sql`delete from license_shares where coalesce(stopped_at, ends_at) < ${at(cutoff)}`),
  /** Robots the hub has not reported since the cutoff and that no license binds. */
  deleteStaleRobots: (ex: Executor, cutoff: Date) =>
    count(
      ex,
      sql`delete from robots r where r.updated_at < ${at(cutoff)}
          and not exists (select 1 from robot_licenses l where l.robot_id = r.id)`,
    ),
  deleteOldNotices: (ex: Executor, cutoff: Date) =>
    count(ex, sql`delete from lifecycle_notices where sent_at < ${at(cutoff)}`),
  deleteOldProviderEvents: (ex: Executor, cutoff: Date) =>
    count(ex, sql`delete from provider_events where received_at < ${at(cutoff)}`),
};
