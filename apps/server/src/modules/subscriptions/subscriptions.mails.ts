import { PRODUCT_NAME } from '@portal/contract';
import { escapeHtml, type Mail } from '../../lib/mailer.ts';

/** Lifecycle emails (docs/decisions/019): plain text with an HTML twin, one link to the portal. */

/** A date as customers read it in the portal (en-GB): 5 January 2027. */
export function mailDate(d: Date): string {
  return d.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

export function lifecycleMail(
  to: string,
  subject: string,
  lines: string[],
  link: { href: string; label: string },
): Mail {
  const text = ['Hello,', '', ...lines, '', `${link.label}: ${link.href}`, '', `— ${PRODUCT_NAME}`].join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5"><p>Hello,</p>
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>
<p>— ${escapeHtml(PRODUCT_NAME)}</p></body></html>`;
  return { to, subject, text, html, link: link.href };
}

export interface ReminderSubject {
  /** "Your Standard Subscription" or "Your Pepper driver licence" */
  what: string;
  endsAt: Date;
  renews: boolean;
  days: 30 | 7;
}

export function reminderMail(to: string, s: ReminderSubject, manageUrl: string): Mail {
  const when = mailDate(s.endsAt);
  return lifecycleMail(
    to,
    s.renews ? `${s.what} renews on ${when}` : `${s.what} ends on ${when}`,
    s.renews
      ? [
          `${s.what} renews automatically on ${when}, in ${s.days} days, and the card on file will be charged.`,
          'To change or cancel it, open Subscriptions in the portal and choose Update Payment Info.',
        ]
      : [
          `${s.what} ends on ${when}, in ${s.days} days, and will not renew.`,
          'To keep it, open Subscriptions in the portal and resume it before then.',
        ],
    { href: manageUrl, label: 'Manage subscriptions' },
  );
}

export function paymentFailedMail(to: string, what: string[], manageUrl: string): Mail {
  return lifecycleMail(
    to,
    'Your payment failed',
    [
      `We could not take the payment to renew ${what.join(', ')}.`,
      'It has stopped working until the payment goes through. Update your card under Subscriptions, Update Payment Info, and we will try again.',
    ],
    { href: manageUrl, label: 'Update payment info' },
  );
}

export function stoppedMail(to: string, what: string[], reason: string, manageUrl: string): Mail {
  return lifecycleMail(
    to,
    'Something on your account has stopped working',
    [`${what.join(', ')} ${what.length === 1 ? 'has' : 'have'} stopped working: ${reason}.`],
    { href: manageUrl, label: 'View subscriptions' },
  );
}

export function slotsTrimmedMail(
  to: string,
  input: { from: number; to: number; emptied: { slot: number; model: string }[] },
  manageUrl: string,
): Mail {
  return lifecycleMail(
    to,
    'Your flexible license slots were reduced',
    [
      `Your account now has ${input.to} flexible license slot${input.to === 1 ? '' : 's'} (it had ${input.from}).`,
      input.emptied.length
        ? `These slots were emptied and their flexible licenses stopped working: ${input.emptied
            .map((e) => `slot ${e.slot + 1} (${e.model})`)
            .join(', ')}.`
        : 'No slot held a license, so nothing stopped working.',
    ],
    { href: manageUrl, label: 'Flexible licenses' },
  );
}

export function planChangedMail(to: string, from: string, toTier: string, manageUrl: string): Mail {
  return lifecycleMail(
    to,
    `Your plan is now ${toTier}`,
    [`Your plan changed from ${from} to ${toTier}. The change applies at once; the price difference is prorated.`],
    { href: manageUrl, label: 'View subscriptions' },
  );
}
