import { PRODUCT_NAME } from '@portal/contract';
import { escapeHtml, type Mail } from '../../lib/mailer.ts';

/** "5 March 2026, 14:00 UTC": a mail cannot know the reader's time zone, so it names the one it uses. */
function mailDate(at: Date): string {
  return `${new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(at)} UTC`;
}

function mail(to: string, subject: string, name: string, lines: string[], link: { href: string; label: string }): Mail {
  const greeting = `Hello ${name},`;
  const text = [greeting, '', ...lines, '', `${link.label}: ${link.href}`, '', `— ${PRODUCT_NAME}`].join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">
<p>${escapeHtml(greeting)}</p>
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p><p style="color:#666;font-size:12px">${escapeHtml(link.href)}</p>
<p>— ${escapeHtml(PRODUCT_NAME)}</p></body></html>`;
  return { to, subject, text, html, link: link.href };
}

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
  return mail(
    input.to,
    `New sign-in to your ${PRODUCT_NAME} account`,
    input.name,
    [
      `Your account was just signed in to ${input.method === 'passkey' ? 'with a passkey' : 'with your password'} from a browser it has not used before: ${input.browser}, from the address ${input.address || 'unknown'}, on ${mailDate(input.at)}.`,
      'If this was you, there is nothing to do.',
      'If it was not you, change your password now, and sign out the sessions you do not recognise under Security on your profile page.',
    ],
    { href: input.securityLink, label: 'Review where you are signed in' },
  );
}

export function passkeyAddedMail(input: {
  to: string;
  name: string;
  passkeyName: string;
  at: Date;
  securityLink: string;
}): Mail {
  return mail(
    input.to,
    `A passkey was added to your ${PRODUCT_NAME} account`,
    input.name,
    [
      `A passkey named "${input.passkeyName}" was added to your account on ${mailDate(input.at)}. It can now sign in to your account without a password.`,
      'If this was not you, remove it under Security on your profile page and change your password.',
    ],
    { href: input.securityLink, label: 'Review your passkeys' },
  );
}
