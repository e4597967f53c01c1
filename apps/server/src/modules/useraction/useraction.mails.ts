import { PRODUCT_NAME } from '@portal/contract';
import { layoutMail } from '../../lib/mail-layout.ts';
import type { Mail } from '../../lib/mailer.ts';

/**
 * No name in it: whoever registers an address chooses the name, and a genuine portal mail must not
 * carry their text to someone else's inbox (docs/decisions/026).
 */
export function verificationMail(to: string, link: string, hours: number): Mail {
  return layoutMail({
    to,
    subject: `Verify your email for ${PRODUCT_NAME}`,
    body: [
      `Thank you for creating an account. Please confirm that this is your email address by opening the link below.`,
      `The link works once and expires in ${hours} hours. If you did not create an account, you can ignore this email.`,
    ],
    action: { href: link, label: 'Verify my email' },
  });
}

export function alreadyRegisteredMail(to: string, name: string, signInLink: string, resetLink: string): Mail {
  return layoutMail({
    to,
    subject: `Someone tried to create a ${PRODUCT_NAME} account with your email`,
    name,
    body: [
      'Somebody (perhaps you) just tried to create a new account with this email address, but an account already exists for it, so nothing was changed.',
      `If it was you, sign in at ${signInLink}. If you forgot your password, you can reset it at ${resetLink}.`,
      'If it was not you, you can ignore this email.',
    ],
  });
}

export function resetMail(to: string, name: string, link: string, minutes: number): Mail {
  return layoutMail({
    to,
    subject: `Reset your ${PRODUCT_NAME} password`,
    name,
    body: [
      'We received a request to reset the password of your account. Open the link below to choose a new password.',
      `The link works once and expires in ${minutes} minutes. If you did not ask for this, you can ignore this email: your password stays as it is.`,
    ],
    action: { href: link, label: 'Reset my password' },
  });
}

export function passwordChangedMail(to: string, name: string): Mail {
  return layoutMail({
    to,
    subject: `Your ${PRODUCT_NAME} password was changed`,
    name,
    body: [
      'The password of your account was just changed, and every other signed-in session was signed out.',
      'If this was not you, reset your password straight away with "Forgot Password?" on the sign-in page.',
    ],
  });
}
