import {
  ApiError,
  AssetType,
  MAX_FLEX_SLOTS,
  type OperatorPayment,
  OverrideKind,
  type OverrideKindValue,
  type SubscriptionSummary,
  type TierName,
} from '@portal/contract';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AuditInput, AuditService } from '../audit/audit.service.ts';
import type { Sessions } from '../auth/auth.sessions.ts';
import type { FlexSlotService, SlotAllowance } from '../flexible-license/flexible-license.service.ts';
import type { LicenseService } from '../license/license.service.ts';
import type { BillingService } from '../payment/billing.service.ts';
import type { Outbox } from '../payment/outbox.ts';
import type { RobotService } from '../robots/robots.service.ts';
import type { SubscriptionService } from '../subscriptions/subscriptions.service.ts';
import type { TimeService } from '../time/time.service.ts';
import type { AccountRef, AccountService } from '../useraction/useraction.service.ts';
import { operatorRepository } from './operator.repository.ts';

/** The account an operator acts on. */
export type OperatedAccount = AccountRef;

/**
 * Who acts: the API key over /api/operator (`{ kind: 'key', id }`), the command line on the host
 * (CLI_ACTOR). Every state-changing action below writes one entry naming it (docs/decisions/072).
 */
export type OperatorActor = AuditInput['actor'];
/** The command line on the host (portal-admin). */
export const CLI_ACTOR: OperatorActor = { kind: 'system', id: 'cli' };

/**
 * What an operator does to an account (docs/operations.md). The command line and the
 * /api/operator actions both call these, so a grant means the same wherever it comes from.
 */
export class OperatorService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly peers: {
      accounts: AccountService;
      subscriptions: SubscriptionService;
      slots: FlexSlotService;
      billing: BillingService;
      sessions: Sessions;
      licenses: LicenseService;
      robots: RobotService;
      outbox: Outbox;
      time: TimeService;
      audit: AuditService;
    },
  ) {}

  /** The account of an email (stored lower-cased); 404 naming `email` when there is none. */
  async account(email: string): Promise<OperatedAccount> {
    return this.peers.accounts.requireByEmail(email.trim().toLowerCase());
  }

  /**
   * Ends the account's active subscriptions and starts the granted one now, for `durationS`
   * seconds. Lite is the absence of a subscription: granting it only ends the active ones.
   */
  async grantSubscription(
    account: OperatedAccount,
    input: { tier: TierName; overrideKind: OverrideKindValue; durationS: number },
    by: OperatorActor,
  ): Promise<SubscriptionSummary> {
    const now = this.clock.now();
    const endsAt = new Date(now.getTime() + input.durationS * 1_000);
    const row = await this.db.transaction(async (tx) => {
      const before = (await this.peers.subscriptions.tierOf(tx, account.id, now))?.tier ?? 'Lite';
      const granted = await this.peers.subscriptions.grant(tx, {
        userId: account.id,
        tier: input.tier,
        overrideKind: input.overrideKind,
        now,
        endsAt,
      });
      await this.peers.audit.record(tx, {
        actor: by,
        subjectUserId: account.id,
        kind: 'change',
        action: 'subscription.grant',
        target: granted?.id ?? '',
        changes: {
          tier: { before, after: (await this.peers.subscriptions.tierOf(tx, account.id, now))?.tier ?? 'Lite' },
          ...(granted ? { ends_at: { before: null, after: endsAt.getTime() } } : {}),
        },
        personal: { subscriptionTier: input.tier, overrideKind: input.overrideKind, durationS: input.durationS },
      });
      return granted;
    });
    await this.peers.subscriptions.reconcile(account.id);
    const tier = (await this.peers.subscriptions.tierOf(this.db, account.id, now))?.tier ?? 'Lite';
    if (!row)
      return {
        user_email: account.email,
        tier,
        subscription_tier: 'Lite Subscription',
        uuid: '',
        override_kind: OverrideKind.None,
        start_date: 0,
        end_date: 0,
        duration: 0,
      };
    return {
      user_email: account.email,
      tier,
      subscription_tier: row.tier,
      uuid: row.id,
      override_kind: row.overrideKind as OverrideKindValue,
      start_date: row.startsAt.getTime(),
      end_date: row.endsAt?.getTime() ?? 0,
      duration: input.durationS,
    };
  }

  /**
   * Sets (0 to MAX_FLEX_SLOTS) or clears (null) the operator's grant of flexible license slots; the
   * account has the larger of it and its plan's count (docs/decisions/061). Answers the counts after.
   */
  async setSlotGrant(account: OperatedAccount, amount: number | null, by: OperatorActor): Promise<SlotAllowance> {
    if (amount !== null && (!Number.isInteger(amount) || amount < 0 || amount > MAX_FLEX_SLOTS))
      throw new ApiError(
        'VALIDATION',
        `amount: must be a whole number from 0 to ${MAX_FLEX_SLOTS}, or null to clear the grant`,
      );
    // A grant equal to the one in force changes nothing and records nothing.
    return this.peers.slots.setGrant(account.id, amount, (tx, before, after) =>
      this.peers.audit
        .record(tx, {
          actor: by,
          subjectUserId: account.id,
          kind: 'change',
          action: 'slots.set',
          changes: {
            slot_grant: { before: before.granted, after: after.granted },
            ...(before.amount === after.amount ? {} : { slot_amount: { before: before.amount, after: after.amount } }),
          },
        })
        .then(() => undefined),
    );
  }

  /** The account's payments, newest first. */
  async payments(account: OperatedAccount): Promise<OperatorPayment[]> {
    return (await this.peers.billing.paymentsOf(account.id)).map((p) =>
      this.peers.billing.operatorView(p, account.email),
    );
  }

  /**
   * Refunds a payment whole or in part through the provider (docs/decisions/019); the entry is
   * written with the outcome, after the provider's answer (a refused refund records none).
   */
  async refund(paymentId: string, amount: number | undefined, by: OperatorActor): Promise<OperatorPayment> {
    const row = await this.peers.billing.refund(paymentId, amount, by);
    const user = await this.peers.subscriptions.userOf(row.userId);
    return this.peers.billing.operatorView(row, user?.email ?? '');
  }

  /**
   * Disables or enables an account. A disabled account cannot sign in or refresh (403, FORBIDDEN)
   * and every session it has ends at once; enabling lets it sign in again. Answers whether anything changed.
   */
  async setDisabled(account: OperatedAccount, disabled: boolean, by: OperatorActor): Promise<boolean> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const before = await operatorRepository.disabledAt(tx, account.id);
      const changed = await operatorRepository.setDisabled(tx, account.id, disabled ? now : null);
      const ended = disabled
        ? await this.peers.sessions.revokeAll(tx, account.id, 'account disabled by an operator')
        : 0;
      // A security entry when the account changed; disabling a disabled account records nothing.
      if (changed)
        await this.peers.audit.record(tx, {
          actor: by,
          subjectUserId: account.id,
          kind: 'security',
          action: disabled ? 'account.disable' : 'account.enable',
          changes: { disabled_at: { before: before?.getTime() ?? null, after: disabled ? now.getTime() : null } },
          ...(disabled ? { personal: { sessionsEnded: ended } } : {}),
        });
      return changed;
    });
  }

  /** Ends every session of the account (signed out everywhere; the password stays). Answers how many were live. */
  async revokeSessions(account: OperatedAccount, by: OperatorActor): Promise<number> {
    return this.db.transaction(async (tx) => {
      const live = await operatorRepository.liveSessions(tx, account.id, this.clock.now());
      await this.peers.sessions.revokeAll(tx, account.id, 'revoked by an operator');
      await this.peers.audit.record(tx, {
        actor: by,
        subjectUserId: account.id,
        kind: 'security',
        action: 'sessions.revoke',
        personal: { sessionsEnded: live },
      });
      return live;
    });
  }

  /** Marks the account's email verified (the command line's users:verify). Answers whether it changed. */
  async verify(account: OperatedAccount, by: OperatorActor): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const changed = await operatorRepository.verify(tx, account.id, this.clock.now());
      if (changed)
        await this.peers.audit.record(tx, {
          actor: by,
          subjectUserId: account.id,
          kind: 'change',
          action: 'account.verify',
          changes: { email_verified: { before: false, after: true } },
        });
      return changed;
    });
  }

  /**
   * An unpaired robot license of a model (the command line's grant-license): the model's driver
   * asset license when the catalogue has one, else a bare robot license. Answers its id and pairing code.
   */
  async grantLicense(
    account: OperatedAccount,
    model: string,
    by: OperatorActor,
  ): Promise<{ licenseId: string; code: string; model: string; driver: boolean }> {
    const entry = (tx: Parameters<AuditService['record']>[0], target: string) =>
      this.peers.audit.record(tx, {
        actor: by,
        subjectUserId: account.id,
        kind: 'change',
        action: 'license.grant',
        target,
        personal: { model },
      });
    const driver = await operatorRepository.driverFor(this.db, AssetType.RobotDriver, model);
    if (driver) {
      const granted = await this.peers.licenses.grantAsset(
        account.id,
        { assetId: driver.id, source: 'operator' },
        async (tx, id) => {
          await entry(tx, id);
        },
      );
      return {
        licenseId: granted.robotLicense?.robot_license.license_id ?? '',
        code: granted.code ?? '',
        model: driver.model,
        driver: true,
      };
    }
    return this.db.transaction(async (tx) => {
      const granted = await this.peers.licenses.grantRobotLicense(tx, {
        userId: account.id,
        model,
        source: 'operator',
      });
      await entry(tx, granted.license.id);
      return { licenseId: granted.license.id, code: granted.code, model, driver: false };
    });
  }

  /** Adds durable dial minutes (the command line's add-time), with the reason on the record. */
  async addTime(account: OperatedAccount, minutes: number, reason: string, by: OperatorActor) {
    return this.db.transaction(async (tx) => {
      const time = await this.peers.time.credit(account.id, { kind: 'grant', minutes, reason }, tx);
      const left = time.total_durable_time - time.used_durable_time;
      await this.peers.audit.record(tx, {
        actor: by,
        subjectUserId: account.id,
        kind: 'change',
        action: 'time.grant',
        changes: { durable_minutes: { before: left - minutes, after: left } },
        personal: { minutes, reason },
      });
      return time;
    });
  }

  /** EndSubscriptionPeriod (the sandbox): its entry is the outcome's (renewed, failed, ended), by `by`. */
  endPeriod(subscriptionId: string, by: OperatorActor) {
    return this.peers.billing.endPeriodNow(subscriptionId, by);
  }

  /**
   * A job run by an operator: one entry naming the job and its counts, written after the run (the
   * run is many transactions; each change inside it has its own entry, by the job's actor).
   */
  private async ranJob<T extends object>(job: string, by: OperatorActor, run: () => Promise<T>): Promise<T> {
    const out = await run();
    const counts = Object.fromEntries(
      Object.entries(out).filter(([, v]) => typeof v === 'number' || typeof v === 'boolean'),
    );
    await this.peers.audit.recordAlone({
      actor: by,
      kind: 'change',
      action: `job.${job}`,
      target: job,
      personal: counts,
    });
    return out;
  }

  /** The lifecycle job once (renewals, failed payments, expiries, reminders). */
  runLifecycle(by: OperatorActor) {
    return this.ranJob('lifecycle', by, () => this.peers.billing.runLifecycle());
  }

  /** The reconciliation with Stripe once (skipped on the sandbox). */
  runReconciliation(by: OperatorActor) {
    return this.ranJob('reconciliation', by, () => this.peers.billing.reconciliation.run());
  }

  /** The outbox's due work once. */
  runOutbox(by: OperatorActor) {
    return this.ranJob('outbox', by, () => this.peers.outbox.run());
  }

  /** The account's licenses as its own dashboard shows them: its own, and those shared with it. */
  licenses(account: OperatedAccount) {
    return this.peers.licenses.licensesOf({ userId: account.id, email: account.email });
  }

  /** The robots registered to the account. */
  async robots(account: OperatedAccount) {
    return (await this.peers.robots.visible({ userId: account.id, email: account.email }, [])).parsed().robots;
  }
}
