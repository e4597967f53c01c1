import {
  ApiError,
  CUSTOMER_AUDIT_SHOWN,
  CUSTOMER_LEDGER_SHOWN,
  CUSTOMER_USAGE_DAYS,
  type CustomerHit,
  type CustomerView,
  OverrideKind,
  roleCan,
  type SearchKey,
  type StaffRole,
  type TierName,
} from '@portal/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { auditActorOf, type StaffCaller } from '../../plugins/actions.ts';
import type { AdminService } from '../admin/admin.service.ts';
import type { AuditInput, AuditService } from '../audit/audit.service.ts';
import type { Sessions } from '../auth/auth.sessions.ts';
import type { FlexSlotService } from '../flexible-license/flexible-license.service.ts';
import type { LicenseService } from '../license/license.service.ts';
import type { OperatedAccount, OperatorService } from '../operator/operator.service.ts';
import type { BillingService } from '../payment/billing.service.ts';
import type { PrivacyService } from '../privacy/privacy.service.ts';
import type { RobotService } from '../robots/robots.service.ts';
import type { SecurityService } from '../security/security.service.ts';
import type { SubscriptionService } from '../subscriptions/subscriptions.service.ts';
import type { TimeService } from '../time/time.service.ts';
import type { AccountService } from '../useraction/useraction.service.ts';
import { adminCustomersRepository as repo } from './admin-customers.repository.ts';

/** The actor of a staff call, with the reason it gave (kept in the entry's personal side row). */
export type StaffActorWithReason = NonNullable<AuditInput['actor']>;

export const actorOf: (staff: StaffCaller, reason?: string) => StaffActorWithReason = auditActorOf;

const epoch = (at: Date | null | undefined) => at?.getTime() ?? 0;

/**
 * The console's customers (issue 35, docs/decisions/075): lookup, the customer view composed from
 * the services that own each part, and the actions with a reason, each the OperatorService (or
 * account, licence) method the command line and /api/operator call, with the staff member as actor.
 */
export class AdminCustomersService {
  constructor(
    private readonly deps: {
      config: Config;
      db: Db;
      clock: Clock;
      accounts: AccountService;
      operators: OperatorService;
      licenses: LicenseService;
      robots: RobotService;
      time: TimeService;
      slots: FlexSlotService;
      subscriptions: SubscriptionService;
      billing: BillingService;
      sessions: Sessions;
      security: SecurityService;
      audit: AuditService;
      admin: AdminService;
      privacy: PrivacyService;
    },
  ) {}

  // ---- lookup ----

  async search(query: string, limit: number): Promise<CustomerHit[]> {
    const prefix = query.trim().toLowerCase();
    const rows = await repo.search(this.deps.db, {
      prefix,
      pairCodeHash: this.deps.licenses.codes.hash(query),
      limit,
    });
    const hits = new Map<string, Omit<CustomerHit, 'tier'>>();
    for (const row of rows) {
      const hit = hits.get(row.user_id);
      if (hit) {
        if (!hit.matched.includes(row.matched)) hit.matched.push(row.matched);
        if (!hit.matched_value && row.value) hit.matched_value = row.value;
        continue;
      }
      if (hits.size >= limit) continue;
      hits.set(row.user_id, {
        user_id: row.user_id,
        email: row.email,
        name: row.name,
        company: row.company,
        matched: [row.matched as SearchKey],
        matched_value: row.value ?? '',
      });
    }
    const now = this.deps.clock.now();
    return Promise.all(
      [...hits.values()].map(async (hit) => ({
        ...hit,
        tier: (await this.deps.subscriptions.tierNow(hit.user_id, now))?.tier ?? 'Lite',
      })),
    );
  }

  // ---- the view ----

  /** The account of a user id; 404 naming user_id when there is none. */
  private async account(userId: string): Promise<OperatedAccount> {
    const profile = await this.deps.accounts.profileOf(userId);
    if (!profile) throw new ApiError('NOT_FOUND', 'user_id: no account with this id');
    return { id: profile.id, email: profile.email };
  }

  /** GetCustomer: the view, then its read entry customer.view (after the reads: a failed read records none). */
  async open(staff: StaffCaller, userId: string, ip: string): Promise<CustomerView> {
    const view = await this.view(staff.role, userId);
    await this.deps.audit.recordAlone({
      actor: actorOf(staff),
      subjectUserId: userId,
      kind: 'read',
      action: 'customer.view',
      target: userId,
      personal: { ip },
    });
    return view;
  }

  /** The customer view as the caller's role may see it (payments only with payments.read). */
  async view(role: StaffRole, userId: string): Promise<CustomerView> {
    const d = this.deps;
    const row = await d.accounts.row(userId);
    if (!row) throw new ApiError('NOT_FOUND', 'user_id: no account with this id');
    const account = { id: row.id, email: row.email };
    const who = { userId: row.id, email: row.email };
    const paymentsVisible = roleCan(role, 'payments.read');
    const [
      tier,
      subs,
      licenses,
      allowance,
      robots,
      time,
      ledger,
      usage,
      payments,
      sessions,
      passkeys,
      requests,
      audit,
    ] = await Promise.all([
      d.subscriptions.tierNow(userId),
      d.subscriptions.listView(who),
      d.operators.licenses(account),
      d.slots.allowance(userId),
      d.operators.robots(account),
      d.time.check(userId),
      d.time.ledger(userId),
      d.time.usageHistory(userId, CUSTOMER_USAGE_DAYS),
      paymentsVisible ? this.payments(account) : Promise.resolve([]),
      d.sessions.list(userId),
      d.security.listPasskeys({ userId, email: row.email, sessionId: '' }),
      repo.supportRequestsOf(d.db, userId),
      d.admin.listAudit({ customer: userId, limit: CUSTOMER_AUDIT_SHOWN }),
    ]);
    return {
      profile: {
        user_id: row.id,
        email: row.email,
        name: row.name,
        company: row.company,
        country: row.country,
        profession: row.profession,
        email_verified: row.emailValidated,
        disabled_at: epoch(row.disabledAt),
        joined_at: epoch(row.joinedAt),
        // A session's last renewal is the account's last activity (nothing writes users.last_active_at).
        last_active_at: Math.max(epoch(row.lastActiveAt), ...sessions.map((s) => s.lastUsedAt.getTime())),
        staff_role: row.staffRole ?? null,
      },
      tier: tier?.tier ?? 'Lite',
      subscriptions: subs.user_subscriptions,
      robot_driver_subscriptions: subs.robot_driver_subscriptions,
      licenses,
      slots: { plan: allowance.plan, granted: allowance.granted, effective: allowance.amount },
      robots,
      time,
      ledger: ledger
        .slice(-CUSTOMER_LEDGER_SHOWN)
        .reverse()
        .map((l) => ({
          at: l.createdAt.getTime(),
          kind: l.kind,
          minutes: l.minutes,
          perishable: l.perishable,
          durable: l.durable,
          robot_id: l.robotId ?? '',
          reason: l.reason,
        })),
      usage,
      payments_visible: paymentsVisible,
      payments,
      sessions: sessions.map((s) => ({
        session_id: s.id,
        target: s.target,
        user_agent: s.userAgent,
        address: s.address,
        started_at: s.createdAt.getTime(),
        last_used_at: s.lastUsedAt.getTime(),
      })),
      passkeys,
      support_requests: requests.map((r) => ({
        id: r.id,
        ticket_id: r.ticketId,
        subject: r.subject,
        category: r.category,
        status: r.status,
        created_at: r.createdAt.getTime(),
      })),
      audit: audit.entries,
    };
  }

  private async payments(account: OperatedAccount): Promise<CustomerView['payments']> {
    const rows = await this.deps.billing.paymentsOf(account.id);
    return Promise.all(
      rows.map(async (p) => ({
        ...this.deps.billing.operatorView(p, account.email),
        payment_intent_id: p.paymentIntentId ?? '',
        refunds: (await this.deps.billing.refundsOf(p.id)).map((r) => ({
          amount: r.amount,
          source: r.source,
          created_at: r.createdAt.getTime(),
          refund_id: r.providerRefundId ?? '',
        })),
        dispute_status: p.disputeStatus ?? '',
      })),
    );
  }

  // ---- actions with a reason: each the command line's method, the staff member as actor ----

  async verifyEmail(staff: StaffCaller, userId: string, reason: string) {
    const account = await this.account(userId);
    if (!(await this.deps.operators.verify(account, actorOf(staff, reason))))
      throw new ApiError('CONFLICT', 'user_id: this address is verified already');
    return this.view(staff.role, userId);
  }

  async setDisabled(staff: StaffCaller, userId: string, disabled: boolean, reason: string) {
    const account = await this.account(userId);
    if (!(await this.deps.operators.setDisabled(account, disabled, actorOf(staff, reason))))
      throw new ApiError(
        'CONFLICT',
        disabled ? 'user_id: this account is disabled already' : 'user_id: this account is not disabled',
      );
    return this.view(staff.role, userId);
  }

  async revokeSessions(staff: StaffCaller, userId: string, reason: string) {
    await this.deps.operators.revokeSessions(await this.account(userId), actorOf(staff, reason));
    return this.view(staff.role, userId);
  }

  async resendVerification(staff: StaffCaller, userId: string, reason: string) {
    await this.deps.accounts.resendVerification(userId, actorOf(staff, reason));
    return this.view(staff.role, userId);
  }

  /** Support grants up to STAFF_GOODWILL_MAX_MINUTES at once, the rule of ADD_TIME with a support key. */
  async grantTime(staff: StaffCaller, userId: string, minutes: number, reason: string) {
    const cap = this.deps.config.STAFF_GOODWILL_MAX_MINUTES;
    if (staff.role === 'support' && minutes > cap)
      throw new ApiError(
        'FORBIDDEN',
        `minutes: support grants at most ${cap} goodwill minutes at once; a larger grant needs the finance role`,
      );
    await this.deps.operators.addTime(await this.account(userId), minutes, reason, actorOf(staff));
    return this.view(staff.role, userId);
  }

  async grantLicense(staff: StaffCaller, userId: string, model: string, reason: string) {
    const granted = await this.deps.operators.grantLicense(await this.account(userId), model, actorOf(staff, reason));
    const customer = await this.view(staff.role, userId);
    const license = customer.licenses.robot_licenses.find((l) => l.robot_license.license_id === granted.licenseId);
    return {
      customer,
      license_id: granted.licenseId,
      pair_code: granted.code,
      ...(license ? { license } : {}),
    };
  }

  async grantSubscription(
    staff: StaffCaller,
    userId: string,
    input: { tier: TierName; override_kind: 0 | 1 | 2; duration_s: number; reason: string },
  ) {
    const subscription = await this.deps.operators.grantSubscription(
      await this.account(userId),
      { tier: input.tier, overrideKind: input.override_kind, durationS: input.duration_s },
      actorOf(staff, input.reason),
    );
    return { customer: await this.view(staff.role, userId), subscription };
  }

  /** Ends the grants in force: the grant of Lite, as the command line's grant-subscription Lite. */
  async endSubscription(staff: StaffCaller, userId: string, reason: string) {
    const account = await this.account(userId);
    const now = this.deps.clock.now();
    const { user_subscriptions } = await this.deps.subscriptions.listView({ userId, email: account.email });
    const granted = user_subscriptions.some(
      (s) =>
        s.status === 'active' &&
        s.overrideReason !== OverrideKind.None &&
        (s.created_at + s.duration * 1000 > now.getTime() || s.duration === 0),
    );
    if (!granted) throw new ApiError('CONFLICT', 'user_id: no granted subscription is in force');
    await this.deps.operators.grantSubscription(
      account,
      { tier: 'Lite Subscription', overrideKind: OverrideKind.Other, durationS: 1 },
      actorOf(staff, reason),
    );
    return this.view(staff.role, userId);
  }

  async setSlotGrant(staff: StaffCaller, userId: string, amount: number | null, reason: string) {
    await this.deps.operators.setSlotGrant(await this.account(userId), amount, actorOf(staff, reason));
    return this.view(staff.role, userId);
  }

  async refund(staff: StaffCaller, userId: string, paymentId: string, amount: number | undefined, reason: string) {
    await this.account(userId);
    const payment = await this.deps.billing.payment(paymentId);
    if (payment?.userId !== userId)
      throw new ApiError('NOT_FOUND', 'payment_id: this customer has no payment with this id');
    const refunded = await this.deps.operators.refund(paymentId, amount, actorOf(staff, reason));
    return { customer: await this.view(staff.role, userId), payment: refunded };
  }

  async unpairRobot(staff: StaffCaller, userId: string, robotId: string, reason: string) {
    const account = await this.account(userId);
    if (!(await this.deps.robots.ownRobot(userId, robotId)))
      throw new ApiError('NOT_FOUND', 'robot_id: this customer has no robot with this id');
    const [license] = await this.deps.licenses.ofRobots([robotId]);
    if (!license) throw new ApiError('CONFLICT', 'robot_id: no licence holds this robot');
    const owner = license.userId === userId ? account : await this.account(license.userId);
    await this.deps.licenses.unpair({ userId: owner.id, email: owner.email }, license.id, async (tx) => {
      await this.deps.audit.record(tx, {
        actor: actorOf(staff, reason),
        subjectUserId: userId,
        kind: 'change',
        action: 'robot.unpair',
        target: robotId,
        changes: { robot_id: { before: robotId, after: null } },
        personal: { licenseId: license.id },
      });
    });
    return this.view(staff.role, userId);
  }

  async deleteAccount(staff: StaffCaller, userId: string, reason: string) {
    await this.account(userId);
    await this.deps.accounts.deleteAccountFor(userId, actorOf(staff, reason));
    return { deleted: true };
  }

  /**
   * The customer's data for a privacy request: the very document the customer downloads from the
   * profile page (PrivacyService.exportAccount), its read entry by the staff member with the reason.
   */
  exportData(staff: StaffCaller, userId: string, reason: string, ip: string) {
    return this.deps.privacy.exportAccount(userId, { by: actorOf(staff, reason), ip });
  }
}
