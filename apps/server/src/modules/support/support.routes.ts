import { randomInt } from 'node:crypto';
import { PRODUCT_NAME, support } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { pgErrorCode } from '../../db/client.ts';
import type { Mail } from '../../lib/mailer.ts';
import { mountService } from '../../plugins/actions.ts';
import { supportRepository } from './support.repository.ts';

/** Enough for a real conversation, too few to flood the support inbox from one account. */
export const SUPPORT_REQUESTS_PER_HOUR = 10;

// No 0/O or 1/I: people read ticket ids out over the phone.
const TICKET_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function newTicketId(): string {
  let id = '';
  for (let i = 0; i < 8; i++) id += TICKET_ALPHABET[randomInt(TICKET_ALPHABET.length)];
  return `SR-${id.slice(0, 4)}-${id.slice(4)}`;
}

function acknowledgementMail(to: string, ticketId: string, subject: string): Mail {
  const lines = [
    `We have received your support request "${subject}".`,
    `Your ticket id is ${ticketId}. Please quote it if you contact us about this request.`,
    `— ${PRODUCT_NAME}`,
  ];
  const escapeHtml = (s: string) =>
    s.replace(
      /[&<>"']/g,
      (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
    );
  return {
    to,
    subject: `[${ticketId}] ${PRODUCT_NAME} support request received`,
    text: lines.join('\n\n'),
    html: `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}</body></html>`,
  };
}

export async function supportRoutes(app: FastifyInstance): Promise<void> {
  const { db, limiter, mailer, clock } = app.deps;

  mountService(app, support, {
    async SubmitSupportRequest(input, { caller, request }) {
      await limiter.hit(
        `support:acct:${caller.userId}`,
        SUPPORT_REQUESTS_PER_HOUR,
        60 * 60,
        'Too many support requests. Please try again later.',
      );
      const robotModel = input.robot_model ? input.robot_model : null;
      const row = {
        userId: caller.userId,
        email: caller.email,
        category: input.category,
        subject: input.subject,
        message: input.message,
        robotModel,
        createdAt: clock.now(),
      };
      let created: Awaited<ReturnType<typeof supportRepository.insert>> | undefined;
      // A ticket id collision is astronomically rare; one retry covers it without a loop.
      for (let attempt = 0; attempt < 2 && !created; attempt++) {
        try {
          created = await supportRepository.insert(db, { ...row, ticketId: newTicketId() });
        } catch (err) {
          if (pgErrorCode(err) !== '23505' || attempt === 1) throw err;
        }
      }
      if (!created) throw new Error('support request not stored');
      const ticketId = created.ticketId;
      request.log.info({ ticket: ticketId, category: input.category }, 'support request stored');
      // The request is stored either way; a mail failure must not make the user send it twice.
      await mailer
        .send(acknowledgementMail(caller.email, ticketId, input.subject))
        .catch((err: unknown) => request.log.warn({ err, ticket: ticketId }, 'support acknowledgement not sent'));
      return { ticket_id: ticketId };
    },
  });
}
