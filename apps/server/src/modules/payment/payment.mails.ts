import { formatPrice, robotDisplayName } from '@portal/contract';
import type { BillingDetails } from '../../db/tables/payment.ts';
import { layoutMail } from '../../lib/mail-layout.ts';
import type { Mail } from '../../lib/mailer.ts';

/** What a receipt lists: each line bought and what the whole came to. */
export interface ReceiptInput {
  to: string;
  lines: readonly { name: string; quantity: number; unit_amount: number }[];
  /** minor units */
  amount: number;
  /** ISO code, as stored */
  currency: string;
  billing: BillingDetails | undefined;
  /** bought in the sandbox: no real money moved */
  sandbox: boolean;
}

/** The billing details as receipt lines: company and VAT number first when given. */
export function billingLines(b: BillingDetails): string[] {
  return [
    b.company ?? '',
    b.vatNumber ? `VAT ${b.vatNumber}` : '',
    b.name,
    b.email,
    b.line1,
    `${b.city} ${b.postcode}`.trim(),
    b.country,
  ].filter(Boolean);
}

const rows = (r: ReceiptInput) =>
  r.lines.map(
    (l) => `${l.quantity} × ${robotDisplayName(l.name)} — ${formatPrice(l.unit_amount * l.quantity, r.currency)}`,
  );
const total = (r: ReceiptInput) => `Total: ${formatPrice(r.amount, r.currency)}`;
const billedTo = (r: ReceiptInput) => (r.billing ? [{ lines: ['Billed to:', ...billingLines(r.billing)] }] : []);

/** A paid checkout's receipt, to the account's address. */
export function checkoutReceiptMail(r: ReceiptInput & { order: string; dashboardLink: string }): Mail {
  return {
    ...layoutMail({
      to: r.to,
      subject: 'Your Robot Portal receipt',
      body: [
        'Thank you for your purchase.',
        ...(r.sandbox ? ['Sandbox purchase: no real payment was taken.'] : []),
        { lines: rows(r) },
        total(r),
        ...billedTo(r),
        `Order: ${r.order}`,
      ],
    }),
    link: r.dashboardLink,
  };
}

/** A renewal's receipt. */
export function renewalReceiptMail(r: ReceiptInput & { description: string; manageUrl: string }): Mail {
  return layoutMail({
    to: r.to,
    subject: 'Your Robot Portal receipt',
    body: [
      `${r.description}.`,
      { lines: rows(r) },
      total(r),
      ...billedTo(r),
      ...(r.sandbox ? ['Sandbox: no real payment was taken.'] : []),
    ],
    action: { href: r.manageUrl, label: 'View subscriptions' },
  });
}

export function refundMail(input: {
  to: string;
  /** minor units, of the refund and of the payment */
  refund: number;
  amount: number;
  currency: string;
  description: string;
  /** the whole payment was refunded, and what it paid for taken back */
  whole: boolean;
  sandbox: boolean;
  manageUrl: string;
}): Mail {
  const money = formatPrice(input.refund, input.currency);
  return layoutMail({
    to: input.to,
    subject: `Your refund of ${money}`,
    body: [
      `We have refunded ${money} of your payment of ${formatPrice(input.amount, input.currency)} (${input.description}).`,
      input.whole
        ? 'As the whole payment was refunded, what it paid for has ended: licences stop working and bought minutes are taken back.'
        : 'What the payment paid for is unchanged.',
      input.sandbox ? 'Sandbox: no real money moved.' : 'It reaches your card within 5 to 10 days.',
    ],
    action: { href: input.manageUrl, label: 'View subscriptions' },
  });
}

/** A payment disputed with the customer's bank: what it paid for stops working until the dispute closes. */
export function disputeMail(d: {
  to: string;
  description: string;
  amount: number;
  currency: string;
  manageUrl: string;
}): Mail {
  return layoutMail({
    to: d.to,
    subject: 'A payment of yours is disputed',
    body: [
      `Your bank told us you disputed the payment of ${formatPrice(d.amount, d.currency)} for ${d.description}.`,
      'What it paid for is inactive while the dispute is open. If the dispute was a mistake, withdraw it with your bank and it becomes active again when the dispute closes in our favour.',
    ],
    action: { href: d.manageUrl, label: 'View subscriptions' },
  });
}
