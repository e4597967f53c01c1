import {
  ApiError,
  MAX_FLEX_SLOTS,
  type OperatorPayment,
  OverrideKind,
  type OverrideKindValue,
  type SubscriptionSummary,
  type TierName,
} from '@portal/contract';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Sessions } from '../auth/auth.sessions.ts';
import type { FlexSlotService, SlotAllowance } from '../flexible-license/flexible-license.service.ts';
import type { LicenseService } from '../license/license.service.ts';
import type { BillingService } from '../payment/billing.service.ts';
import type { RobotService } from '../robots/robots.service.ts';
import type { SubscriptionService } from '../subscriptions/subscriptions.service.ts';
import type { AccountRef, AccountService } from '../useraction/useraction.service.ts';
import { operatorRepository } from './operator.repository.ts';

/** The account an operator acts on. */
export type OperatedAccount = AccountRef;

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
  ): Promise<SubscriptionSummary> {
    const now = this.clock.now();
    const row = await this.db.transaction((tx) =>
      this.peers.subscriptions.grant(tx, {
        userId: account.id,
        tier: input.tier,
        overrideKind: input.overrideKind,
        now,
        endsAt: new Date(now.getTime() + input.durationS * 1_000),
      }),
    );
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
  async setSlotGrant(account: OperatedAccount, amount: number | null): Promise<SlotAllowance> {
    if (amount !== null && (!Number.isInteger(amount) || amount < 0 || amount > MAX_FLEX_SLOTS))
      throw new ApiError(
        'VALIDATION',
        `amount: must be a whole number from 0 to ${MAX_FLEX_SLOTS}, or null to clear the grant`,
      );
    return this.peers.slots.setGrant(account.id, amount);
  }

  /** The account's payments, newest first. */
  async payments(account: OperatedAccount): Promise<OperatorPayment[]> {
    return (await this.peers.billing.paymentsOf(account.id)).map((p) =>
      this.peers.billing.operatorView(p, account.email),
    );
  }

  /** Refunds a payment whole or in part through the provider (docs/decisions/019). */
  async refund(paymentId: string, amount: number | undefined): Promise<OperatorPayment> {
    const row = await this.peers.billing.refund(paymentId, amount);
    const user = await this.peers.subscriptions.userOf(row.userId);
    return this.peers.billing.operatorView(row, user?.email ?? '');
  }

  /**
   * Disables or enables an account. A disabled account cannot sign in or refresh (403, FORBIDDEN)
   * and every session it has ends at once; enabling lets it sign in again. Answers whether anything changed.
   */
  async setDisabled(account: OperatedAccount, disabled: boolean): Promise<boolean> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const changed = await operatorRepository.setDisabled(tx, account.id, disabled ? now : null);
      if (disabled) await this.peers.sessions.revokeAll(tx, account.id, 'account disabled by an operator');
      return changed;
    });
  }

  /** Ends every session of the account (signed out everywhere; the password stays). Answers how many were live. */
  async revokeSessions(account: OperatedAccount): Promise<number> {
    const live = await operatorRepository.liveSessions(this.db, account.id, this.clock.now());
    await this.peers.sessions.revokeAll(this.db, account.id, 'revoked by an operator');
    return live;
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
