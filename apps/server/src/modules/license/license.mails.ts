import { PRODUCT_NAME } from '@portal/contract';
import { escapeHtml, type Mail } from '../../lib/mailer.ts';

/** "5 March 2026, 14:00 UTC": mails cannot know the reader's time zone, so they say which one they use. */
export function mailDate(at: Date): string {
  return `${new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(at)} UTC`;
}

function mail(to: string, subject: string, lines: string[], link: { href: string; label: string }): Mail {
  const text = ['Hello,', '', ...lines, '', `${link.label}: ${link.href}`, '', `— ${PRODUCT_NAME}`].join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">
<p>Hello,</p>
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p><p style="color:#666;font-size:12px">${escapeHtml(link.href)}</p>
<p>— ${escapeHtml(PRODUCT_NAME)}</p></body></html>`;
  return { to, subject, text, html, link: link.href };
}

export interface ShareMailInput {
  to: string;
  ownerEmail: string;
  model: string;
  until: Date;
}

/** To an address with a verified account: the robot is already on their dashboard. */
export function sharedWithYouMail(input: ShareMailInput, dashboardLink: string): Mail {
  return mail(
    input.to,
    `${input.ownerEmail} shared a robot with you on ${PRODUCT_NAME}`,
    [
      `${input.ownerEmail} shared their ${input.model} robot with you until ${mailDate(input.until)}.`,
      'Sign in to see it under Shared Robots on your dashboard. Only its owner can change it, and they can stop sharing it at any time.',
    ],
    { href: dashboardLink, label: 'Open the Robot Manager' },
  );
}

/** To an address without a verified account: the share waits for them to sign up with it (docs/decisions/023). */
export function shareInvitationMail(input: ShareMailInput, signupLink: string): Mail {
  return mail(
    input.to,
    `${input.ownerEmail} shared a robot with you on ${PRODUCT_NAME}`,
    [
      `${input.ownerEmail} shared their ${input.model} robot with you until ${mailDate(input.until)}.`,
      `To see it, create a ${PRODUCT_NAME} account with this email address (if you have already signed up, open the verification link we sent you). The robot appears under Shared Robots once the address is verified.`,
      'If you did not expect this, you can ignore this email: nothing happens unless you sign up.',
    ],
    { href: signupLink, label: 'Create my account' },
  );
}
