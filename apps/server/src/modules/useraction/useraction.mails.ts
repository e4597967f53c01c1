import { PRODUCT_NAME } from '@portal/contract';
import { escapeHtml, type Mail } from '../../lib/mailer.ts';

function mail(
  to: string,
  subject: string,
  greeting: string,
  lines: string[],
  link?: { href: string; label: string },
): Mail {
  const text = [
    greeting,
    '',
    ...lines,
    ...(link ? ['', `${link.label}: ${link.href}`] : []),
    '',
    `— ${PRODUCT_NAME}`,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">
<p>${escapeHtml(greeting)}</p>
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
${link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p><p style="color:#666;font-size:12px">${escapeHtml(link.href)}</p>` : ''}
<p>— ${escapeHtml(PRODUCT_NAME)}</p></body></html>`;
  return { to, subject, text, html, link: link?.href };
}

/**
 * No name in it: whoever registers an address chooses the name, and a genuine portal mail must not
 * carry their text to someone else's inbox (docs/decisions/026).
 */
export function verificationMail(to: string, link: string, hours: number): Mail {
  return mail(
    to,
    `Verify your email for ${PRODUCT_NAME}`,
    'Hello,',
    [
      `Thank you for creating an account. Please confirm that this is your email address by opening the link below.`,
      `The link works once and expires in ${hours} hours. If you did not create an account, you can ignore this email.`,
    ],
    { href: link, label: 'Verify my email' },
  );
}

export function alreadyRegisteredMail(to: string, name: string, signInLink: string, resetLink: string): Mail {
  return mail(to, `Someone tried to create a ${PRODUCT_NAME} account with your email`, `Hello ${name},`, [
    'Somebody (perhaps you) just tried to create a new account with this email address, but an account already exists for it, so nothing was changed.',
    `If it was you, sign in at ${signInLink}. If you forgot your password, you can reset it at ${resetLink}.`,
    'If it was not you, you can ignore this email.',
  ]);
}

export function resetMail(to: string, name: string, link: string, minutes: number): Mail {
  return mail(
    to,
    `Reset your ${PRODUCT_NAME} password`,
    `Hello ${name},`,
    [
      'We received a request to reset the password of your account. Open the link below to choose a new password.',
      `The link works once and expires in ${minutes} minutes. If you did not ask for this, you can ignore this email: your password stays as it is.`,
    ],
    { href: link, label: 'Reset my password' },
  );
}

export function passwordChangedMail(to: string, name: string): Mail {
  return mail(to, `Your ${PRODUCT_NAME} password was changed`, `Hello ${name},`, [
    'The password of your account was just changed, and every other signed-in session was signed out.',
    'If this was not you, reset your password straight away with "Forgot Password?" on the sign-in page.',
  ]);
}
