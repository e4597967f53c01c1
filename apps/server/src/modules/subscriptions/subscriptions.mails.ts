import { layoutMail, mailDay } from '../../lib/mail-layout.ts';
import type { Mail } from '../../lib/mailer.ts';

/** Lifecycle emails (docs/decisions/019): one link to the portal each. */

export interface ReminderSubject {
  /** "Your Standard Subscription" or "Your Pepper driver licence" */
  what: string;
  endsAt: Date;
  renews: boolean;
  days: 30 | 7;
}

export function reminderMail(to: string, s: ReminderSubject, manageUrl: string): Mail {
  const when = mailDay(s.endsAt);
  return layoutMail({
    to,
    subject: s.renews ? `${s.what} renews on ${when}` : `${s.what} ends on ${when}`,
    body: s.renews
      ? [
          `${s.what} renews automatically on ${when}, in ${s.days} days, and the card on file will be charged.`,
          'To change or cancel it, open Subscriptions in the portal and choose Update Payment Info.',
        ]
      : [
          `${s.what} ends on ${when}, in ${s.days} days, and will not renew.`,
          'To keep it, open Subscriptions in the portal and resume it before then.',
        ],
    action: { href: manageUrl, label: 'Manage subscriptions' },
  });
}

export function paymentFailedMail(to: string, what: string[], manageUrl: string): Mail {
  return layoutMail({
    to,
    subject: 'Your payment failed',
    body: [
      `We could not take the payment to renew ${what.join(', ')}.`,
      'It keeps working while we try the card again over the next few days. To keep it, add a new card: open Subscriptions in the portal and choose Update Payment Info; we try the new card at once.',
      'If every attempt fails, the subscription ends.',
    ],
    action: { href: manageUrl, label: 'Update Payment Info' },
  });
}

export function stoppedMail(to: string, what: string[], reason: string, manageUrl: string): Mail {
  return layoutMail({
    to,
    subject: 'Something on your account has stopped working',
    body: [`${what.join(', ')} ${what.length === 1 ? 'has' : 'have'} stopped working: ${reason}.`],
    action: { href: manageUrl, label: 'View subscriptions' },
  });
}

export function slotsTrimmedMail(
  to: string,
  input: { from: number; to: number; emptied: { slot: number; model: string }[] },
  manageUrl: string,
): Mail {
  return layoutMail({
    to,
    subject: 'Your flexible license slots were reduced',
    body: [
      `Your account now has ${input.to} flexible license slot${input.to === 1 ? '' : 's'} (it had ${input.from}).`,
      input.emptied.length
        ? `These slots were emptied and their flexible licenses stopped working: ${input.emptied
            .map((e) => `slot ${e.slot + 1} (${e.model})`)
            .join(', ')}.`
        : 'No slot held a license, so nothing stopped working.',
    ],
    action: { href: manageUrl, label: 'Flexible licenses' },
  });
}

export function planChangedMail(to: string, from: string, toTier: string, manageUrl: string): Mail {
  return layoutMail({
    to,
    subject: `Your plan is now ${toTier}`,
    body: [
      `Your plan changed from ${from} to ${toTier}. The change applies at once; the price difference is prorated.`,
    ],
    action: { href: manageUrl, label: 'View subscriptions' },
  });
}
