import { PRODUCT_NAME } from '@portal/contract';
import { layoutMail, mailTime } from '../../lib/mail-layout.ts';
import type { Mail } from '../../lib/mailer.ts';

/** A sign-in from a browser (browser and system) the account has not signed in from before. */
export function newBrowserMail(input: {
  to: string;
  name: string;
  browser: string;
  address: string;
  at: Date;
  method: 'password' | 'passkey';
  securityLink: string;
}): Mail {
  return layoutMail({
    to: input.to,
    subject: `New sign-in to your ${PRODUCT_NAME} account`,
    name: input.name,
    body: [
      `Your account was just signed in to ${input.method === 'passkey' ? 'with a passkey' : 'with your password'} from a browser it has not used before: ${input.browser}, from the address ${input.address || 'unknown'}, on ${mailTime(input.at)}.`,
      'If this was you, there is nothing to do.',
      'If it was not you, change your password now, and sign out the sessions you do not recognise under Security on your profile page.',
    ],
    action: { href: input.securityLink, label: 'Review where you are signed in' },
  });
}

export function passkeyAddedMail(input: {
  to: string;
  name: string;
  passkeyName: string;
  at: Date;
  securityLink: string;
}): Mail {
  return layoutMail({
    to: input.to,
    subject: `A passkey was added to your ${PRODUCT_NAME} account`,
    name: input.name,
    body: [
      `A passkey named "${input.passkeyName}" was added to your account on ${mailTime(input.at)}. It can now sign in to your account without a password.`,
      'If this was not you, remove it under Security on your profile page and change your password.',
    ],
    action: { href: input.securityLink, label: 'Review your passkeys' },
  });
}
