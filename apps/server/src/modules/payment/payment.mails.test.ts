import { describe, expect, it } from 'vitest';
import type { BillingDetails } from '../../db/tables/payment.ts';
import type { Mail } from '../../lib/mailer.ts';
import { checkoutReceiptMail, refundMail, renewalReceiptMail } from './payment.mails.ts';

const parts = ({ subject, text, html, link }: Mail) => ({ subject, link, text, html });
const billing: BillingDetails = {
  name: 'Ada Lovelace',
  email: 'ada@example.test',
  line1: '12 St James’s Square',
  city: 'London',
  postcode: 'SW1Y 4JH',
  country: 'United Kingdom',
  company: 'Analytical Engines Ltd',
  vatNumber: 'GB123456789',
};
const lines = [
  { name: 'Pepper', quantity: 1, unit_amount: 24_900 },
  { name: '100 minutes', quantity: 2, unit_amount: 2_450 },
];
const manageUrl = 'https://portal.example.test/dashboard/subscriptions/manage';

describe('payment mails, in the one layout (lib/mail-layout.ts)', () => {
  it.each([
    ['sandbox, with billing details', true, billing],
    ['live, without billing details', false, undefined],
  ] as const)('checkout receipt: %s', (_case, sandbox, details) => {
    expect(
      parts(
        checkoutReceiptMail({
          to: 'ada@example.test',
          lines,
          amount: 29_800,
          currency: 'gbp',
          billing: details,
          sandbox,
          order: 'RP-3F9A1C2B',
          dashboardLink: 'https://portal.example.test/dashboard',
        }),
      ),
    ).toMatchSnapshot();
  });

  it('renewal receipt', () => {
    expect(
      parts(
        renewalReceiptMail({
          to: 'ada@example.test',
          description: 'Renewal until 5 January 2028',
          lines: [{ name: 'Standard Subscription', quantity: 1, unit_amount: 9_900 }],
          amount: 9_900,
          currency: 'gbp',
          billing,
          sandbox: true,
          manageUrl,
        }),
      ),
    ).toMatchSnapshot();
  });

  it.each([
    ['whole, sandbox', true, true],
    ['part, live', false, false],
  ] as const)('refund: %s', (_case, whole, sandbox) => {
    expect(
      parts(
        refundMail({
          to: 'ada@example.test',
          refund: whole ? 29_800 : 2_450,
          amount: 29_800,
          currency: 'gbp',
          description: 'Pepper, 100 minutes',
          whole,
          sandbox,
          manageUrl,
        }),
      ),
    ).toMatchSnapshot();
  });

  it('names a model as the cards do: Tiago_Steel driver reads Tiago Steel driver', () => {
    const mail = checkoutReceiptMail({
      to: 'ada@example.test',
      lines: [{ name: 'Tiago_Steel driver', quantity: 1, unit_amount: 49_000 }],
      amount: 49_000,
      currency: 'gbp',
      billing: undefined,
      sandbox: false,
      order: 'RP-3F9A1C2B',
      dashboardLink: 'https://portal.example.test/dashboard',
    });
    expect(mail.text).toContain('1 × Tiago Steel driver');
    expect(mail.text).not.toContain('Tiago_Steel');
    expect(mail.html).not.toContain('Tiago_Steel');
  });

  it('billing details, typed by the buyer, are escaped in the HTML part', () => {
    const mail = checkoutReceiptMail({
      to: 'ada@example.test',
      lines,
      amount: 29_800,
      currency: 'gbp',
      billing: { ...billing, company: '<script>x</script>', line1: 'Flat 1 & 2' },
      sandbox: false,
      order: 'RP-0000CS01',
      dashboardLink: 'https://portal.example.test/dashboard',
    });
    expect(mail.html).toContain('<p>Billed to:<br>&lt;script&gt;x&lt;/script&gt;<br>VAT GB123456789');
    expect(mail.html).toContain('Flat 1 &amp; 2');
    expect(mail.html).not.toContain('<script>');
  });
});
