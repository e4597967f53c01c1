import {
  ApiError,
  deriveTier,
  type InboxRequest,
  type InboxRequestWithThread,
  nextSupportStatus,
  type SettableSupportStatus,
  SUPPORT_CONTEXT_PAYMENTS,
  type SupportCustomerContext,
  type SupportStatus,
} from '@portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { LicenseService } from '../license/license.service.ts';
import type { BillingService } from '../payment/billing.service.ts';
import type { RobotService } from '../robots/robots.service.ts';
import { actorOf, type StaffActor } from '../staff/staff.service.ts';
import type { SubscriptionService } from '../subscriptions/subscriptions.service.ts';
import type { AccountService } from '../useraction/useraction.service.ts';
import { staffReplyMail } from './support.mails.ts';
import { type SupportRequestRow, supportRepository } from './support.repository.ts';
import { nextMessageAt } from './support.service.ts';
import { inboxRequest, inboxSummary } from './support.views.ts';

/** A ticket id that matches no request. */
export const NO_SUCH_TICKET = 'ticket_id: no support request has this ticket id';

export interface SupportInboxPeers {
  accounts: AccountService;
  subscriptions: SubscriptionService;
  robots: RobotService;
  licenses: LicenseService;
  billing: BillingService;
}

/**
 * The support inbox, the staff side of support requests (issue 35, docs/decisions/074): the
 * console's actions and anything else staff use (the command line, a later customer view) call
 * these. Every change is one audit entry in the transaction that makes it; a refused one writes none.
 */
export class SupportInbox {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly mailer: Mailer,
    private readonly audit: AuditService,
    private readonly publicUrl: string,
    private readonly peers: SupportInboxPeers,
  ) {}

  /** The inbox, newest first, filtered by status and assignee (null: unassigned). */
  async list(filter: {
    status?: SupportStatus | undefined;
    assigneeId?: string | null | undefined;
    offset: number;
    limit: number;
  }): Promise<{ requests: InboxRequest[]; total: number }> {
    const { rows, total } = await supportRepository.inbox(this.db, filter);
    return { requests: rows.map(inboxSummary), total };
  }

  /** A request with its thread and the customer beside it; opening it is a read entry. */
  async open(
    ticketId: string,
    by: StaffActor,
    meta: { ip?: string } = {},
  ): Promise<{ request: InboxRequestWithThread; customer: SupportCustomerContext }> {
    const request = await this.view(ticketId);
    const customer = await this.customerContext(request.customer_user_id, request.customer_email);
    await this.audit.recordAlone({
      actor: actorOf(by),
      subjectUserId: request.customer_user_id,
      kind: 'read',
      action: 'support.open',
      target: ticketId,
      personal: { ...(meta.ip ? { ip: meta.ip } : {}) },
    });
    return { request, customer };
  }

  /**
   * A staff reply: stored in the thread, the request waits on the customer, who is mailed (after
   * the commit: a mail never holds a transaction open, and a failed one leaves the reply in the portal).
   */
  async reply(
    ticketId: string,
    message: string,
    by: StaffActor,
    log: FastifyBaseLogger,
    meta: { ip?: string } = {},
  ): Promise<InboxRequestWithThread> {
    const row = await this.db.transaction(async (tx) => {
      const found = await this.locked(tx, ticketId);
      const now = nextMessageAt(this.clock.now(), found);
      const next = nextSupportStatus(found.status, { kind: 'staff_reply' });
      if (!next.ok) throw new ApiError('CONFLICT', `ticket_id: ${next.reason}`);
      const written = await supportRepository.insertMessage(tx, {
        requestId: found.id,
        author: 'staff',
        staffUserId: by.kind === 'staff' ? by.userId : null,
        body: message,
        createdAt: now,
      });
      await supportRepository.update(tx, found.id, { status: next.status, updatedAt: now, lastMessageAt: now });
      await this.audit.record(tx, {
        actor: actorOf(by),
        subjectUserId: found.userId,
        kind: 'change',
        action: 'support.reply',
        target: ticketId,
        changes: { status: { before: found.status, after: next.status } },
        personal: { ...(meta.ip ? { ip: meta.ip } : {}), message_id: written.id },
      });
      return found;
    });
    const view = await this.view(ticketId);
    await this.mailer
      .send(staffReplyMail(view.customer_email, ticketId, row.subject, message, this.publicUrl))
      .catch((err: unknown) => log.warn({ err, ticket: ticketId }, 'support reply mail not sent'));
    return view;
  }

  /** Sets the status by hand; the status it already has changes nothing and records nothing. */
  async setStatus(
    ticketId: string,
    status: SettableSupportStatus,
    by: StaffActor,
    meta: { ip?: string } = {},
  ): Promise<InboxRequestWithThread> {
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      const found = await this.locked(tx, ticketId);
      const next = nextSupportStatus(found.status, { kind: 'set', to: status });
      if (!next.ok) throw new ApiError('VALIDATION', `status: ${next.reason}`);
      if (next.status === found.status) return;
      await supportRepository.update(tx, found.id, { status: next.status, updatedAt: now });
      await this.audit.record(tx, {
        actor: actorOf(by),
        subjectUserId: found.userId,
        kind: 'change',
        action: 'support.status',
        target: ticketId,
        changes: { status: { before: found.status, after: next.status } },
        personal: { ...(meta.ip ? { ip: meta.ip } : {}) },
      });
    });
    return this.view(ticketId);
  }

  /** Assigns the request to a staff member, or unassigns it (null); the same assignee records nothing. */
  async assign(
    ticketId: string,
    assigneeId: string | null,
    by: StaffActor,
    meta: { ip?: string } = {},
  ): Promise<InboxRequestWithThread> {
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      const found = await this.locked(tx, ticketId);
      const after = assigneeId === null ? null : await supportRepository.staffEmail(tx, assigneeId);
      if (assigneeId !== null && after === undefined)
        throw new ApiError('VALIDATION', 'assignee_user_id: must be a staff member');
      if (found.assigneeId === assigneeId) return;
      const before =
        found.assigneeId === null ? null : ((await supportRepository.staffEmail(tx, found.assigneeId)) ?? null);
      await supportRepository.update(tx, found.id, { assigneeId, updatedAt: now });
      await this.audit.record(tx, {
        actor: actorOf(by),
        subjectUserId: found.userId,
        kind: 'change',
        action: 'support.assign',
        target: ticketId,
        // Emails are personal: the before and after live in the side row, which anonymisation replaces.
        changes: { assignee: { before, after } },
        personal: { ...(meta.ip ? { ip: meta.ip } : {}) },
      });
    });
    return this.view(ticketId);
  }

  /** The customer beside a request: profile, tier and subscriptions, robots, licences, recent payments. */
  async customerContext(userId: string, email: string): Promise<SupportCustomerContext> {
    const account = { userId, email };
    const [profile, active, subscriptions, robots, licenses, payments] = await Promise.all([
      this.peers.accounts.profileView(userId),
      this.peers.subscriptions.activeView(account),
      this.peers.subscriptions.listView(account),
      this.peers.robots.visible(account, []),
      this.peers.licenses.licensesOf(account),
      this.peers.billing.paymentsOf(userId),
    ]);
    if (!profile) throw new ApiError('NOT_FOUND', 'ticket_id: the customer of this request is gone');
    return {
      profile,
      tier: deriveTier(active),
      subscriptions,
      robots: robots.parsed().robots,
      licenses,
      payments: payments.slice(0, SUPPORT_CONTEXT_PAYMENTS).map((p) => this.peers.billing.operatorView(p, email)),
    };
  }

  private async locked(tx: Executor, ticketId: string): Promise<SupportRequestRow> {
    const found = await supportRepository.lockByTicket(tx, ticketId);
    if (!found) throw new ApiError('NOT_FOUND', NO_SUCH_TICKET);
    return found;
  }

  private async view(ticketId: string): Promise<InboxRequestWithThread> {
    const row = await supportRepository.listedByTicket(this.db, ticketId);
    if (!row) throw new ApiError('NOT_FOUND', NO_SUCH_TICKET);
    return inboxRequest(row, await supportRepository.messagesOf(this.db, row.id));
  }
}
