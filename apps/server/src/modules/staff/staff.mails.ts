import { PRODUCT_NAME } from '@portal/contract';
import { layoutMail, mailTime } from '../../lib/mail-layout.ts';
import type { Mail } from '../../lib/mailer.ts';

/** The enrolment link of a staff invitation (InviteStaff): where the invited person registers a passkey. */
export function staffInvitationMail(input: { to: string; role: string; link: string; expiresAt: Date }): Mail {
  return layoutMail({
    to: input.to,
    subject: `You are invited to the ${PRODUCT_NAME} back office`,
    body: [
      `You have been given the role ${input.role} in the ${PRODUCT_NAME} back office. Staff sign in with a passkey only: open the link below on the device that will hold it and register your passkey.`,
      `The link works once, until ${mailTime(input.expiresAt)}. If you did not expect this invitation, ignore this mail and tell your administrator.`,
    ],
    action: { href: input.link, label: 'Register your passkey' },
  });
}
