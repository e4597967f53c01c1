import { randomInt } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { type Db, pgErrorCode } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { Caller } from '../auth/auth.sessions.ts';
import { acknowledgementMail } from './support.mails.ts';
import { type SupportRequestRow, supportRepository } from './support.repository.ts';

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

/** Support requests: stored with a ticket id the user can quote, acknowledged by email. */
export class SupportService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly mailer: Mailer,
  ) {}

  /** Stores the request and answers its ticket id. */
  async submit(caller: Caller, input: SupportRequestInput, log: FastifyBaseLogger): Promise<string> {
    const row = {
      userId: caller.userId,
      email: caller.email,
      category: input.category,
      subject: input.subject,
      message: input.message,
      robotModel: input.robotModel ? input.robotModel : null,
      createdAt: this.clock.now(),
    };
    let created: Awaited<ReturnType<typeof supportRepository.insert>> | undefined;
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
    return ticketId;
  }
}
