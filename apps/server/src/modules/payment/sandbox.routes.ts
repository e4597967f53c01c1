import { formatPrice } from '@portal/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { BillingDetails } from '../../db/tables/payment.ts';
import { escapeHtml } from '../../lib/mailer.ts';
import type { RouteOptions } from '../../services.ts';
import { withSessionId } from './payment.provider.ts';
import type { CheckoutSessionRow } from './payment.repository.ts';
import { type Form, sandboxForms } from './sandbox-forms.ts';

/**
 * The sandbox's hosted checkout (docs/decisions/017): served by this server, outside /api, to a
 * browser that arrives by redirect without the portal's bearer token. The session id is the
 * capability to open the page, as with Stripe's hosted checkout; the form carries a token derived
 * from it and the server's secret, and a post must come from our own origin. No script: the CSP
 * forbids inline script and a plain form needs none.
 */

/** The standard test cards (spec: DESIGN §5) and what each does. */
export const TEST_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const;

const DECLINED = 'Your card was declined.';
const INSUFFICIENT = 'Your card has insufficient funds.';

const FIELDS = [
  ['name', 'Name on card', 'name'],
  ['email', 'Email', 'email'],
  ['line1', 'Address line', 'address-line1'],
  ['city', 'City', 'address-level2'],
  ['postcode', 'Postcode', 'postal-code'],
  ['country', 'Country', 'country-name'],
] as const;

export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The first problem of the form, naming its field; undefined when every field is well formed. */
export function formProblem(form: Form, now: Date): string | undefined {
  for (const [key, label] of FIELDS) {
    const value = (form[key] ?? '').trim();
    if (!value) return `${label}: required`;
    if (value.length > 200) return `${label}: at most 200 characters`;
  }
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test((form.email ?? '').trim())) return 'Email: not a valid email address';
  const number = (form.card_number ?? '').replace(/[\s-]/g, '');
  if (!number) return 'Card number: required';
  if (!/^\d{12,19}$/.test(number) || !luhn(number)) return 'Card number: not a valid card number';
  const expiry = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec((form.expiry ?? '').trim());
  if (!expiry) return 'Expiry: required as MM / YY';
  const month = Number(expiry[1]);
  const year = Number(expiry[2]?.length === 2 ? `20${expiry[2]}` : expiry[2]);
  if (month < 1 || month > 12) return 'Expiry: the month must be 01 to 12';
  if (Date.UTC(year, month, 1) <= now.getTime()) return 'Expiry: the card has expired';
  if (!/^\d{3,4}$/.test((form.cvc ?? '').trim())) return 'CVC: 3 or 4 digits';
  return undefined;
}

export const STYLE = `body{font-family:system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1a1d21}
main{max-width:720px;margin:0 auto;padding:24px}
.banner{background:#fff4ce;border:1px solid #e0b400;padding:12px 16px;border-radius:8px;font-weight:600}
section{background:#fff;border-radius:8px;padding:16px 20px;margin-top:16px;box-shadow:0 1px 2px #0001}
table{width:100%;border-collapse:collapse}td{padding:4px 0}td.n{text-align:right}
label{display:block;margin-top:10px;font-size:14px}input{width:100%;box-sizing:border-box;padding:8px;font-size:16px;border:1px solid #a0a6ad;border-radius:6px}
.row{display:flex;gap:12px}.row>div{flex:1}
.error{background:#fde8e8;border:1px solid #c81e1e;color:#8a1010;padding:10px 14px;border-radius:8px;margin-top:16px}
button{margin-top:16px;padding:10px 18px;font-size:16px;border-radius:6px;border:0;cursor:pointer}
.pay{background:#1d4ed8;color:#fff}.cancel{background:#e5e7eb;color:#1a1d21}
.hint{font-size:13px;color:#4b5563}
.ok{background:#e7f6ec;border:1px solid #1f7a3a;color:#145227;padding:10px 14px;border-radius:8px;margin-top:16px}
th{text-align:left;font-size:14px;padding:4px 8px 4px 0}td{padding:4px 8px 4px 0;vertical-align:top}
.inline{display:inline}.inline button{margin-top:6px;padding:6px 12px;font-size:14px}
.wrap{overflow-x:auto}
.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (max-width:600px){table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}table.stack tr{display:block;border-top:1px solid #d1d5db;padding:8px 0}table.stack td{display:block;padding:2px 0}table.stack td[data-label]::before{content:attr(data-label) ": ";font-weight:600}}
@media (prefers-color-scheme:dark){body{background:#111418;color:#e6e8eb}section{background:#1b1f24}input{background:#111418;color:#e6e8eb}.cancel{background:#374151;color:#e6e8eb}.hint{color:#9ca3af}.banner{color:#1a1d21}.ok{background:#0f2a18;color:#b7e4c4}.error{background:#3a1111;color:#f8c4c4}a{color:#93c5fd}}`;

const per = (interval: string | null) => (interval ? `/${interval}` : '');

export function page(
  title: string,
  body: string,
  what = 'Sandbox checkout',
  notice = 'This checkout takes test cards only and charges nothing.',
): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)} · ${escapeHtml(what)}</title><style>${STYLE}</style></head><body><main><p class="banner" role="note">Sandbox — no real payment. ${escapeHtml(notice)}</p>${body}</main></body></html>`;
}

function summary(s: CheckoutSessionRow): string {
  const rows = s.lines
    .map(
      (l) =>
        `<tr><td>${l.quantity} × ${escapeHtml(l.name)}</td><td class="n">${escapeHtml(formatPrice(l.unit_amount * l.quantity, s.currency))}${per(l.interval)}</td></tr>`,
    )
    .join('');
  return `<section aria-labelledby="summary"><h2 id="summary">Order summary</h2><table>${rows}<tr><td><strong>Total</strong></td><td class="n"><strong>${escapeHtml(formatPrice(s.amount, s.currency))}</strong></td></tr></table></section>`;
}

function checkoutPage(s: CheckoutSessionRow, token: string, form: Form = {}, error?: string): string {
  const value = (k: string) => escapeHtml(form[k] ?? '');
  const billing = FIELDS.map(
    ([key, label, auto]) =>
      `<label for="${key}">${label}</label><input id="${key}" name="${key}" autocomplete="${auto}" required maxlength="200" value="${value(key)}"${key === 'email' ? ' type="email"' : ''}>`,
  ).join('');
  const action = `/sandbox/checkout/${encodeURIComponent(s.id)}`;
  return page(
    'Pay',
    `<h1>Checkout</h1>${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}${summary(s)}
<section aria-labelledby="pay"><h2 id="pay">Billing details and card</h2>
<form method="post" action="${action}/pay"><input type="hidden" name="token" value="${token}">${billing}
<label for="card_number">Card number</label><input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" required value="${value('card_number')}">
<p class="hint">Test cards: 4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 is declined; 4000 0000 0000 9995 has insufficient funds.</p>
<div class="row"><div><label for="expiry">Expiry (MM / YY)</label><input id="expiry" name="expiry" autocomplete="cc-exp" required value="${value('expiry')}"></div>
<div><label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required value="${value('cvc')}"></div></div>
<button class="pay" type="submit">Pay ${escapeHtml(formatPrice(s.amount, s.currency))}</button></form>
<form method="post" action="${action}/cancel"><input type="hidden" name="token" value="${token}"><button class="cancel" type="submit">Cancel</button></form></section>`,
  );
}

function closedPage(s: CheckoutSessionRow): string {
  if (s.status === 'paid')
    return page(
      'Paid',
      `<h1>This checkout is paid</h1>${summary(s)}<p><a href="${escapeHtml(withSessionId(s.successUrl, s.id))}">Continue to the portal</a></p>`,
    );
  return page(
    'Cancelled',
    `<h1>This checkout was cancelled or has expired</h1><p>Nothing was charged and nothing was granted.</p><p><a href="${escapeHtml(s.cancelUrl)}">Back to the portal</a></p>`,
  );
}

async function sandboxRoutes(app: FastifyInstance, { config, services }: RouteOptions): Promise<void> {
  const { payments } = services;
  const { formToken, html, fromOurOrigin, tokenMatches } = sandboxForms(app, config, 'sandbox-checkout-form');

  const notFound = (reply: FastifyReply) =>
    html(reply, 404, page('Not found', '<h1>No such checkout</h1><p>This checkout does not exist.</p>'));

  /** The session of an open post: ours by origin and token, else an answer has been sent. */
  async function postedSession(request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) {
    if (!fromOurOrigin(request)) {
      html(reply, 403, page('Refused', '<h1>Refused</h1><p>This form can only be sent from the checkout page.</p>'));
      return undefined;
    }
    const session = payments.provider.kind === 'sandbox' ? await payments.session(request.params.id) : undefined;
    if (!session) {
      notFound(reply);
      return undefined;
    }
    const body = (request.body ?? {}) as Form;
    if (!tokenMatches(body, session.id)) {
      html(reply, 403, page('Refused', '<h1>Refused</h1><p>This form has expired; open the checkout again.</p>'));
      return undefined;
    }
    if (session.status !== 'open') {
      html(reply, 409, closedPage(session));
      return undefined;
    }
    return { session, body };
  }

  app.get<{ Params: { id: string } }>('/sandbox/checkout/:id', async (request, reply) => {
    const session = payments.provider.kind === 'sandbox' ? await payments.session(request.params.id) : undefined;
    if (!session) return notFound(reply);
    if (session.status !== 'open') return html(reply, 200, closedPage(session));
    return html(reply, 200, checkoutPage(session, formToken(session.id)));
  });

  app.post<{ Params: { id: string } }>('/sandbox/checkout/:id/pay', async (request, reply) => {
    const posted = await postedSession(request, reply);
    if (!posted) return reply;
    const { session, body } = posted;
    const token = formToken(session.id);
    const form: Form = Object.fromEntries(
      Object.entries(body).filter(([k, v]) => k !== 'token' && typeof v === 'string' && v.length <= 200),
    );
    const problem = formProblem(form, payments.now());
    if (problem) return html(reply, 400, checkoutPage(session, token, form, problem));
    const number = (form.card_number ?? '').replace(/[\s-]/g, '');
    if (number !== TEST_CARDS.success) {
      const message = number === TEST_CARDS.insufficientFunds ? INSUFFICIENT : DECLINED;
      // A failed card grants nothing and leaves the session open for another try.
      return html(reply, 402, checkoutPage(session, token, { ...form, card_number: '', cvc: '' }, message));
    }
    const billing: BillingDetails = {
      name: form.name?.trim() ?? '',
      email: form.email?.trim() ?? '',
      line1: form.line1?.trim() ?? '',
      city: form.city?.trim() ?? '',
      postcode: form.postcode?.trim() ?? '',
      country: form.country?.trim() ?? '',
    };
    await payments.fulfil(session.id, { billing });
    await services.billing.rememberCard(session.userId, number);
    return reply.redirect(withSessionId(session.successUrl, session.id), 303);
  });

  app.post<{ Params: { id: string } }>('/sandbox/checkout/:id/cancel', async (request, reply) => {
    const posted = await postedSession(request, reply);
    if (!posted) return reply;
    await payments.expire(posted.session.id);
    return reply.redirect(posted.session.cancelUrl, 303);
  });
}

export const sandboxPlugin = fp(sandboxRoutes, {
  name: 'sandbox-routes',
  dependencies: ['security'],
  encapsulate: true,
});
