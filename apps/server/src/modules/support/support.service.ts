import { randomInt } from 'node:crypto';
import {
  ApiError,
  MY_SUPPORT_REQUESTS_MAX,
  type MySupportRequest,
  type MySupportRequestSummary,
  nextSupportStatus,
} from '@portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import { type Db, pgErrorCode } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { Caller } from '../auth/auth.sessions.ts';
import { acknowledgementMail, inboxNotificationMail } from './support.mails.ts';
import { type SupportRequestListed, type SupportRequestRow, supportRepository } from './support.repository.ts';
import { myRequest, mySummary } from './support.views.ts';

// No 0/O or 1/I: people read ticket ids out over the phone.
const TICKET_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function newTicketId(): string {
  let id = '';
  for (let i = 0; i < 8; i++) id += TICKET_ALPHABET[randomInt(TICKET_ALPHABET.length)];
  return `SR-${id.slice(0, 4)}-${id.slice(4)}`;
}

export interface SupportRequestInput {
  category: SupportRequestRow['category'];
  subject: string;
  message: string;
  robotModel?: string | undefined;
}

/**
 * When a new message of a thread is written, under the request's lock: now, but always after the
 * last one, so the thread's order is the order its messages were written in, and the last message
 * is the one whose author set the status.
 */
export function nextMessageAt(now: Date, request: Pick<SupportRequestRow, 'lastMessageAt'>): Date {
  return new Date(Math.max(now.getTime(), request.lastMessageAt.getTime() + 1));
}

/** Another account's ticket id answers as one that does not exist: the id tells nobody else anything. */
export const TICKET_NOT_FOUND = 'ticket_id: no support request of yours has this ticket id';

export interface SupportOptions {
  /** where the console lives and customers answer (links in mails) */
  publicUrl: string;
  /** SUPPORT_INBOX_EMAIL: told of every new request and every customer answer; unset, nobody is */
  inboxEmail?: string | undefined;
}

/**
 * Support requests, the customer's side (issue 35, docs/decisions/074): stored with a ticket id the
 * user can quote and acknowledged by email; the customer reads their requests with the thread and
 * answers in it, which reopens the request. New requests and answers tell SUPPORT_INBOX_EMAIL.
 */
export class SupportService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly mailer: Mailer,
    private readonly options: SupportOptions,
  ) {}

  /** Stores the request and answers its ticket id. */
  async submit(caller: Caller, input: SupportRequestInput, log: FastifyBaseLogger): Promise<string> {
    const now = this.clock.now();
    const row = {
      userId: caller.userId,
      email: caller.email,
      category: input.category,
      subject: input.subject,
      message: input.message,
      robotModel: input.robotModel ? input.robotModel : null,
      status: 'new' as const,
      createdAt: now,
      updatedAt: now,
      lastMessageAt: now,
    };
    let created: SupportRequestRow | undefined;
    // A ticket id collision is astronomically rare; one retry covers it without a loop.
    for (let attempt = 0; attempt < 2 && !created; attempt++) {
      try {
        created = await supportRepository.insert(this.db, { ...row, ticketId: newTicketId() });
      } catch (err) {
        if (pgErrorCode(err) !== '23505' || attempt === 1) throw err;
      }
    }
    if (!created) throw new Error('support request not stored');
    const ticketId = created.ticketId;
    log.info({ ticket: ticketId, category: input.category }, 'support request stored');
    // The request is stored either way; a mail failure must not make the user send it twice.
    await this.mailer
      .send(acknowledgementMail(caller.email, ticketId, input.subject))
      .catch((err: unknown) => log.warn({ err, ticket: ticketId }, 'support acknowledgement not sent'));
    await this.notifyInbox({ ...created, customerEmail: caller.email }, 'new', log);
    return ticketId;
  }

  /** The caller's requests, newest first. */
  async listMine(caller: Caller): Promise<MySupportRequestSummary[]> {
    return (await supportRepository.ofUser(this.db, caller.userId, MY_SUPPORT_REQUESTS_MAX)).map(mySummary);
  }

  /** One of the caller's requests with its thread; another's is NOT_FOUND. */
  async getMine(caller: Caller, ticketId: string): Promise<MySupportRequest> {
    const row = await supportRepository.listedByTicket(this.db, ticketId, caller.userId);
    if (!row) throw new ApiError('NOT_FOUND', TICKET_NOT_FOUND);
    return myRequest(row, await supportRepository.messagesOf(this.db, row.id));
  }

  /** The caller answers in the thread of their own request: it is open again, whatever it was. */
  async replyMine(
    caller: Caller,
    ticketId: string,
    message: string,
    log: FastifyBaseLogger,
  ): Promise<MySupportRequest> {
    const request = await this.db.transaction(async (tx) => {
      const row = await supportRepository.lockByTicket(tx, ticketId, caller.userId);
      if (!row) throw new ApiError('NOT_FOUND', TICKET_NOT_FOUND);
      const now = nextMessageAt(this.clock.now(), row);
      const next = nextSupportStatus(row.status, { kind: 'customer_reply' });
      if (!next.ok) throw new ApiError('CONFLICT', `ticket_id: ${next.reason}`);
      await supportRepository.insertMessage(tx, {
        requestId: row.id,
        author: 'customer',
        body: message,
        createdAt: now,
      });
      await supportRepository.update(tx, row.id, { status: next.status, updatedAt: now, lastMessageAt: now });
      return row;
    });
    log.info({ ticket: ticketId }, 'support request answered by its customer');
    const listed = await supportRepository.listedByTicket(this.db, request.ticketId, caller.userId);
    if (!listed) throw new ApiError('NOT_FOUND', TICKET_NOT_FOUND);
    await this.notifyInbox(listed, 'customer_reply', log);
    return myRequest(listed, await supportRepository.messagesOf(this.db, listed.id));
  }

  /** Tells SUPPORT_INBOX_EMAIL, when set; a mail failure is logged, the request stays stored. */
  private async notifyInbox(
    request: Pick<SupportRequestListed, 'ticketId' | 'category' | 'subject' | 'customerEmail'>,
    what: 'new' | 'customer_reply',
    log: FastifyBaseLogger,
  ): Promise<void> {
    const to = this.options.inboxEmail;
    if (!to) return;
    await this.mailer
      .send(inboxNotificationMail(to, request, what, this.options.publicUrl))
      .catch((err: unknown) => log.warn({ err, ticket: request.ticketId }, 'support inbox notification not sent'));
  }
}
