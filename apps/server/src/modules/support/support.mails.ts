import { PRODUCT_NAME, SUPPORT_CATEGORY_LABELS, type SupportCategory } from '@portal/contract';
import { layoutMail } from '../../lib/mail-layout.ts';
import type { Mail } from '../../lib/mailer.ts';

/** The acknowledgement of a support request, with the ticket id to quote. */
export function acknowledgementMail(to: string, ticketId: string, subject: string): Mail {
  return layoutMail({
    to,
    subject: `[${ticketId}] ${PRODUCT_NAME} support request received`,
    body: [
      `We have received your support request "${subject}".`,
      `Your ticket id is ${ticketId}. Please quote it if you contact us about this request.`,
    ],
  });
}

/** A staff reply, to the customer: the reply itself, and where to answer (the portal; inbound mail is not read). */
export function staffReplyMail(to: string, ticketId: string, subject: string, reply: string, publicUrl: string): Mail {
  return layoutMail({
    to,
    subject: `[${ticketId}] Reply to your ${PRODUCT_NAME} support request`,
    body: [
      `We have replied to your support request "${subject}":`,
      { lines: reply.split(/\r?\n/) },
      'To answer, please write in the portal at /dashboard/support: replies to this email are not read.',
    ],
    action: { href: `${publicUrl}/dashboard/support?ticket=${ticketId}`, label: 'Read and answer in the portal' },
  });
}

/** To the support inbox (SUPPORT_INBOX_EMAIL): a new request, or the customer's answer in its thread. */
export function inboxNotificationMail(
  to: string,
  request: { ticketId: string; category: SupportCategory; subject: string; customerEmail: string },
  what: 'new' | 'customer_reply',
  publicUrl: string,
): Mail {
  const headline =
    what === 'new'
      ? `A new support request arrived: ${request.ticketId}.`
      : `The customer answered in ${request.ticketId}.`;
  return layoutMail({
    to,
    subject:
      what === 'new'
        ? `[${request.ticketId}] New support request: ${request.subject}`
        : `[${request.ticketId}] Customer replied: ${request.subject}`,
    body: [
      headline,
      {
        lines: [
          `Category: ${SUPPORT_CATEGORY_LABELS[request.category]}`,
          `Subject: ${request.subject}`,
          `Customer: ${request.customerEmail}`,
        ],
      },
    ],
    action: { href: `${publicUrl}/admin/support/${request.ticketId}`, label: 'Open it in the console' },
  });
}
