import { PRODUCT_NAME } from '@portal/contract';
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
