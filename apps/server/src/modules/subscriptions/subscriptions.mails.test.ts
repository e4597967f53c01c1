import { describe, expect, it } from 'vitest';
import type { Mail } from '../../lib/mailer.ts';
import {
  paymentFailedMail,
  planChangedMail,
  reminderMail,
  slotsTrimmedMail,
  stoppedMail,
} from './subscriptions.mails.ts';

const parts = ({ subject, text, html, link }: Mail) => ({ subject, link, text, html });
const manage = 'https://portal.example.test/dashboard/subscriptions/manage';
const endsAt = new Date('2027-01-05T00:00:00Z');

describe('lifecycle mails, in the one layout (lib/mail-layout.ts)', () => {
  it.each([
    ['renews', true, 30],
    ['ends', false, 7],
  ] as const)('reminder: %s', (_case, renews, days) => {
    expect(
      parts(reminderMail('ada@example.test', { what: 'Your Standard Subscription', endsAt, renews, days }, manage)),
    ).toMatchSnapshot();
  });

  it('payment failed', () => {
    expect(
      parts(
        paymentFailedMail('ada@example.test', ['your Standard Subscription', 'your Pepper driver licence'], manage),
      ),
    ).toMatchSnapshot();
  });

  it.each([
    ['one thing', ['your Standard Subscription']],
    ['two things', ['your Standard Subscription', 'your Pepper driver licence']],
  ])('stopped: %s', (_case, what) => {
    expect(parts(stoppedMail('ada@example.test', what, 'it reached its end date', manage))).toMatchSnapshot();
  });

  it.each([
    [
      'slots emptied',
      {
        from: 3,
        to: 1,
        emptied: [
          { slot: 1, model: 'Nao' },
          { slot: 2, model: 'Rhino' },
        ],
      },
    ],
    ['none emptied', { from: 2, to: 1, emptied: [] }],
  ])('slots trimmed: %s', (_case, input) => {
    expect(
      parts(slotsTrimmedMail('ada@example.test', input, `${manage.replace('manage', 'flexible_licenses')}`)),
    ).toMatchSnapshot();
  });

  it('plan changed', () => {
    expect(parts(planChangedMail('ada@example.test', 'Standard', 'Premium', manage))).toMatchSnapshot();
  });

  it('a robot model, named by whoever added it, is escaped in the HTML part', () => {
    const mail = slotsTrimmedMail(
      'ada@example.test',
      { from: 2, to: 1, emptied: [{ slot: 1, model: '<b>Nao</b>' }] },
      manage,
    );
    expect(mail.html).toContain('slot 2 (&lt;b&gt;Nao&lt;/b&gt;)');
    expect(mail.html).not.toContain('<b>');
  });
});
