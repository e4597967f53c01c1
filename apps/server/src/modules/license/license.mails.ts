import { PRODUCT_NAME } from '@portal/contract';
import { layoutMail, mailTime } from '../../lib/mail-layout.ts';
import type { Mail } from '../../lib/mailer.ts';

export interface ShareMailInput {
  to: string;
  ownerEmail: string;
  model: string;
  until: Date;
}

/** To an address with a verified account: the robot is already on their dashboard. */
export function sharedWithYouMail(input: ShareMailInput, dashboardLink: string): Mail {
  return layoutMail({
    to: input.to,
    subject: `${input.ownerEmail} shared a robot with you on ${PRODUCT_NAME}`,
    body: [
      `${input.ownerEmail} shared their ${input.model} robot with you until ${mailTime(input.until)}.`,
      'Sign in to see it under Shared Robots on your dashboard. Only its owner can change it, and they can stop sharing it at any time.',
    ],
    action: { href: dashboardLink, label: 'Open the Robot Manager' },
  });
}

/** To an address without a verified account: the share waits for them to sign up with it (docs/decisions/023). */
export function shareInvitationMail(input: ShareMailInput, signupLink: string): Mail {
  return layoutMail({
    to: input.to,
    subject: `${input.ownerEmail} shared a robot with you on ${PRODUCT_NAME}`,
    body: [
      `${input.ownerEmail} shared their ${input.model} robot with you until ${mailTime(input.until)}.`,
      `To see it, create a ${PRODUCT_NAME} account with this email address (if you have already signed up, open the verification link we sent you). The robot appears under Shared Robots once the address is verified.`,
      'If you did not expect this, you can ignore this email: nothing happens unless you sign up.',
    ],
    action: { href: signupLink, label: 'Create my account' },
  });
}
