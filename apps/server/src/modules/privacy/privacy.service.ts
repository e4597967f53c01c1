import { ApiError, DATA_EXPORT_FORMAT_VERSION, type DataExport } from '@portal/contract';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AuditInput, AuditService } from '../audit/audit.service.ts';
import type { LicenseService } from '../license/license.service.ts';
import type { BillingService } from '../payment/billing.service.ts';
import type { RobotService } from '../robots/robots.service.ts';
import type { SubscriptionService } from '../subscriptions/subscriptions.service.ts';
import { supportRepository } from '../support/support.repository.ts';
import { myRequest } from '../support/support.views.ts';
import type { TimeService } from '../time/time.service.ts';
import type { AccountService } from '../useraction/useraction.service.ts';

/** Audit entries an export holds at most (the newest); far beyond what two years of sign-ins write. */
const SECURITY_EVENTS_MAX = 10_000;
/** Support requests an export holds at most (the newest). */
const SUPPORT_REQUESTS_MAX = 10_000;

export interface PrivacyPeers {
  accounts: AccountService;
  subscriptions: SubscriptionService;
  robots: RobotService;
  licenses: LicenseService;
  billing: BillingService;
  time: TimeService;
  audit: AuditService;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** An address that is not the account's own: someone else's (a staff member's), left out of the export. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const SOMEONE_ELSE = 'someone else';

/** `value` with every address but `own` replaced by SOMEONE_ELSE, at any depth. */
export function withoutOthersAddresses(value: unknown, own: string): unknown {
  if (typeof value === 'string') return EMAIL.test(value) && value.toLowerCase() !== own ? SOMEONE_ELSE : value;
  if (Array.isArray(value)) return value.map((v) => withoutOthersAddresses(v, own));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutOthersAddresses(v, own)]));
  return value;
}

type AuditRow = Awaited<ReturnType<AuditService['list']>>[number];

/**
 * One audit entry as the account's owner gets it. What an entry records about its actor (their
 * client address, browser, the rest of their side row) is the account's own data only when the
 * account acted; for staff, keys, Stripe and the system it is left out, and so is any other
 * person's address in what changed (a staff assignee).
 */
export function securityEvent(
  e: AuditRow['audit_entries'],
  p: AuditRow['audit_personal'],
  account: { userId: string; email: string },
): DataExport['security_events'][number] {
  const {
    ip,
    userAgent,
    reason,
    changes,
    anonymised: _marker,
    ...details
  } = (p?.data ?? {}) as Record<string, unknown>;
  const own = e.actorKind === 'customer' && e.actorId === account.userId;
  return {
    at: e.at.getTime(),
    kind: e.kind,
    action: e.action,
    actor: e.actorKind,
    ip: own ? text(ip) : '',
    user_agent: own ? text(userAgent) : '',
    reason: text(reason),
    changes: withoutOthersAddresses(changes ?? {}, account.email) as Record<
      string,
      { before: unknown; after: unknown }
    >,
    details: own ? details : {},
    anonymised: p?.anonymisedAt != null,
  };
}

/**
 * The privacy policy's right of access (issue 35 item 5, docs/decisions/074): everything the portal
 * holds about an account, as one document. Each part is read through the module that owns it. The
 * customer downloads it from the profile page; staff answering a request for it call the same
 * `exportAccount` with themselves as the actor. Either way the export is a read entry of the trail.
 */
export class PrivacyService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly peers: PrivacyPeers,
  ) {}

  /** The file name a download saves: robot-portal-data-<yyyy-mm-dd>.json, the day of the export (UTC). */
  fileName(at: Date): string {
    return `robot-portal-data-${at.toISOString().slice(0, 10)}.json`;
  }

  async exportAccount(
    userId: string,
    opts: { by?: AuditInput['actor']; ip?: string } = {},
  ): Promise<{ filename: string; data: DataExport }> {
    const now = this.clock.now();
    const { accounts, subscriptions, robots, licenses, billing, time, audit } = this.peers;
    const profile = await accounts.profileView(userId);
    if (!profile) throw new ApiError('NOT_FOUND', 'user_id: no account with this id');
    const account = { userId, email: profile.email };
    const [plans, fleet, owned, balance, ledger, paid, requests, entries] = await Promise.all([
      subscriptions.listView(account),
      robots.visible(account, []),
      licenses.licensesOf(account),
      time.check(userId),
      time.ledger(userId),
      billing.paymentsOf(userId),
      supportRepository.ofUser(this.db, userId, SUPPORT_REQUESTS_MAX),
      audit.list({ subjectUserId: userId, limit: SECURITY_EVENTS_MAX }),
    ]);
    const payments = await Promise.all(
      paid.map(async (p) => ({
        ...billing.operatorView(p, profile.email),
        refunds: (await billing.refundsOf(p.id))
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
          .map((r) => ({ amount: r.amount, at: r.createdAt.getTime(), source: r.source })),
      })),
    );
    const support = await Promise.all(
      requests.map(async (r) => {
        const view = myRequest(r, await supportRepository.messagesOf(this.db, r.id));
        return {
          ticket_id: view.ticket_id,
          category: view.category,
          subject: view.subject,
          robot_model: view.robot_model,
          status: view.status,
          created_at: view.created_at,
          thread: view.thread,
        };
      }),
    );
    const data: DataExport = {
      format_version: DATA_EXPORT_FORMAT_VERSION,
      exported_at: now.toISOString(),
      account: profile,
      licenses: owned,
      robots: fleet.parsed().robots,
      subscriptions: plans,
      dial_time: {
        balance,
        ledger: ledger.map((e) => ({
          at: e.createdAt.getTime(),
          kind: e.kind,
          minutes: e.minutes,
          perishable: e.perishable,
          durable: e.durable,
          period_start: e.periodStart.getTime(),
          robot_id: e.robotId ?? '',
          robot_model: e.robotModel ?? '',
          reason: e.reason,
        })),
      },
      payments,
      support_requests: support,
      security_events: entries.map(({ audit_entries: e, audit_personal: p }) =>
        securityEvent(e, p, { userId, email: profile.email }),
      ),
    };
    await audit.recordAlone({
      actor: opts.by ?? { kind: 'customer', id: userId },
      subjectUserId: userId,
      kind: 'read',
      action: 'data.export',
      personal: { ...(opts.ip ? { ip: opts.ip } : {}) },
    });
    return { filename: this.fileName(now), data };
  }
}
