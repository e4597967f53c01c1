import { ApiError, type Currency, formatPrice } from '@portal/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { BillingDetails } from '../../db/tables/payment.ts';
import { escapeHtml } from '../../lib/mailer.ts';
import type { RouteOptions, Services } from '../../services.ts';
import { driverEnd } from '../subscriptions/subscriptions.repository.ts';
import { isFreePlan } from './catalogue.ts';
import { billingLines } from './payment.mails.ts';
import type { PaymentRow } from './payment.repository.ts';
import { luhn, page } from './sandbox.routes.ts';
import { type Form, sandboxForms } from './sandbox-forms.ts';

/**
 * The sandbox's billing page (docs/decisions/020): what Stripe's customer portal is in Stripe mode.
 * CreateBillingPortalSession answers /sandbox/billing/:id, a short-lived capability for the
 * signed-in user, as Stripe's portal URL is. Plain HTML, no script; every form carries a token
 * derived from the portal session and the server's secret, and a post must come from our origin.
 */

const WHAT = 'Sandbox billing';
const NOTICE = 'This billing page changes sandbox subscriptions only and charges nothing.';

const DONE: Record<string, string> = {
  plan: 'Your plan was changed.',
  cancel: 'The subscription will end at the end of its period.',
  resume: 'The subscription will renew again.',
  card: 'Your card was updated.',
  details: 'Your billing details were saved; receipts show them from now on.',
};

const DETAIL_FIELDS = [
  ['company', 'Company', 'organization', false],
  ['vat_number', 'VAT number', 'off', false],
  ['name', 'Name', 'name', true],
  ['line1', 'Address line', 'address-line1', true],
  ['city', 'City', 'address-level2', true],
  ['postcode', 'Postcode', 'postal-code', true],
  ['country', 'Country', 'country-name', true],
] as const;

/** en-GB date, as the portal shows dates. */
const day = (d: Date) =>
  d.toLocaleDateString('en-GB', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' });

const statusWord = (status: string, cancelAtPeriodEnd: boolean, paymentFailed = false) =>
  paymentFailed && status === 'active'
    ? 'Active, payment failed: update your card'
    : cancelAtPeriodEnd && status === 'active'
      ? 'Active, cancels at period end'
      : ({
          active: 'Active',
          cancelled: 'Cancelled',
          expired: 'Expired',
          inactive: 'Inactive',
          pending_assignment: 'Pending',
        }[status] ?? status);

interface View {
  base: string;
  token: string;
  returnUrl: string;
  message?: { ok: boolean; text: string } | undefined;
}

async function billingPage(services: Services, userId: string, view: View): Promise<string> {
  const { subscriptions, billing } = services;
  const now = services.payments.now();
  const [tier, refs, customer, payments, products, livePlan] = await Promise.all([
    subscriptions.tierNow(userId, now),
    subscriptions.refsOf(userId),
    billing.customer(userId),
    billing.paymentsOf(userId),
    services.payments.products(),
    subscriptions.livePlan(userId),
  ]);
  const form = (action: string, inner: string, cls = 'inline') =>
    `<form class="${cls}" method="post" action="${view.base}/${action}"><input type="hidden" name="token" value="${view.token}">${inner}</form>`;
  const money = (amount: number, currency: string) => escapeHtml(formatPrice(amount, currency as Currency));

  // The plan: the current one and the others it can change to.
  const planRows = products
    .filter((p) => p.metadata.BOW_TIER && !isFreePlan(p))
    .flatMap((p) =>
      p.prices.filter((x) => x.recurring).map((x) => ({ product: p, price: x, current: livePlan?.priceId === x.id })),
    )
    .sort(
      (a, b) =>
        Number(a.price.recurring?.interval === 'year') - Number(b.price.recurring?.interval === 'year') ||
        a.price.unit_amount - b.price.unit_amount,
    );
  const planSection = livePlan
    ? `<p>Your plan: <strong>${escapeHtml(livePlan.tier)}</strong> (${escapeHtml(statusWord(livePlan.status, livePlan.cancelAtPeriodEnd, Boolean(livePlan.paymentFailedAt)))})${
        livePlan.endsAt ? `, ${livePlan.cancelAtPeriodEnd ? 'ends' : 'renews'} on ${day(livePlan.endsAt)}` : ''
      }.</p>
<div class="wrap"><table class="stack"><thead><tr><th scope="col">Plan</th><th scope="col">Price</th><th scope="col"><span class="hint">Change</span></th></tr></thead><tbody>${planRows
        .map(
          (r) =>
            `<tr><td>${escapeHtml(r.product.name)}</td><td data-label="Price">${money(r.price.unit_amount, r.price.currency)}/${escapeHtml(r.price.recurring?.interval ?? '')}</td><td>${
              r.current
                ? 'Current plan'
                : form(
                    'plan',
                    `<input type="hidden" name="price_id" value="${escapeHtml(r.price.id)}"><button class="pay" type="submit">Switch<span class="vh"> to ${escapeHtml(r.product.name)} ${escapeHtml(r.price.recurring?.interval === 'year' ? 'yearly' : 'monthly')}</span></button>`,
                  )
            }</td></tr>`,
        )
        .join('')}</tbody></table></div>`
    : `<p>You are on ${escapeHtml(tier?.tier ?? 'Lite')}${tier && tier.tier !== 'Lite' ? ' (granted, not billed)' : ''}. Buy a plan from Subscriptions in the portal.</p>`;

  // Every provider subscription: a plan or robot drivers, with cancel or resume.
  const driverRows = [...refs.values()].flatMap((r) => r.drivers);
  const models = new Map(
    (await subscriptions.licensesOf(driverRows.map((d) => d.robotLicenseId))).map((l) => [l.id, l.robotModel]),
  );
  const subRows = [...refs.entries()]
    .map(([ref, rows]) => {
      const all = [...rows.plans, ...rows.drivers];
      const live = all.find((r) => r.status === 'active' || r.status === 'pending_assignment');
      const cancelling = all.some((r) => r.cancelAtPeriodEnd);
      const end = new Date(
        Math.max(
          ...rows.plans.map((r) => r.endsAt?.getTime() ?? 0),
          ...rows.drivers.map((r) => driverEnd(r).getTime()),
        ),
      );
      const what = [
        ...rows.plans.map((r) => r.tier),
        ...rows.drivers.map((d) => `${models.get(d.robotLicenseId) ?? 'Robot'} driver`),
      ];
      const status = live?.status ?? all[0]?.status ?? 'expired';
      const action = live
        ? cancelling
          ? form(
              'resume',
              `<input type="hidden" name="subscription" value="${escapeHtml(ref)}"><button class="pay" type="submit">Resume</button>`,
            )
          : form(
              'cancel',
              `<input type="hidden" name="subscription" value="${escapeHtml(ref)}"><button class="cancel" type="submit">Cancel<span class="vh"> ${escapeHtml(what.join(', '))}</span> at period end</button>`,
            )
        : '';
      return `<tr><td>${escapeHtml(what.join(', '))}</td><td data-label="Status">${escapeHtml(
        statusWord(
          status,
          cancelling,
          [...rows.plans, ...rows.drivers].some((r) => r.paymentFailedAt && r.status === 'active'),
        ),
      )}</td><td data-label="Period ends">${day(end)}</td><td>${action}</td></tr>`;
    })
    .join('');
  const subsSection = subRows
    ? `<div class="wrap"><table class="stack"><thead><tr><th scope="col">Subscription</th><th scope="col">Status</th><th scope="col">Period ends</th><th scope="col"><span class="hint">Action</span></th></tr></thead><tbody>${subRows}</tbody></table></div>`
    : '<p>No subscriptions yet.</p>';

  const b: Partial<BillingDetails> = customer?.billing ?? {};
  const value = (k: string) =>
    escapeHtml(
      (
        {
          company: b.company,
          vat_number: b.vatNumber,
          name: b.name,
          line1: b.line1,
          city: b.city,
          postcode: b.postcode,
          country: b.country,
        } as Record<string, string | undefined>
      )[k] ?? '',
    );
  const details = DETAIL_FIELDS.map(
    ([key, label, auto, required]) =>
      `<label for="${key}">${label}${required ? '' : ' (optional)'}</label><input id="${key}" name="${key}" autocomplete="${auto}" maxlength="200" value="${value(key)}"${required ? ' required' : ''}>`,
  ).join('');

  const paymentRows = payments
    .map(
      (p: PaymentRow) =>
        `<tr><td>${day(p.createdAt)}</td><td>${escapeHtml(p.description)}</td><td data-label="Amount">${money(p.amount, p.currency)}${
          p.refundedAmount ? ` <span class="hint">(refunded ${money(p.refundedAmount, p.currency)})</span>` : ''
        }</td><td data-label="Status">${p.status === 'paid' ? 'Paid' : 'Failed'}</td><td>${
          p.status === 'paid'
            ? `<a href="${view.base}/receipts/${p.id}">Receipt<span class="hint"> of ${day(p.createdAt)}</span></a>`
            : ''
        }</td></tr>`,
    )
    .join('');

  return page(
    'Billing',
    `<h1>Billing</h1>${
      view.message
        ? `<p class="${view.message.ok ? 'ok' : 'error'}" role="${view.message.ok ? 'status' : 'alert'}">${escapeHtml(view.message.text)}</p>`
        : ''
    }
<section aria-labelledby="plan"><h2 id="plan">Plan</h2>${planSection}</section>
<section aria-labelledby="subs"><h2 id="subs">Subscriptions</h2>${subsSection}</section>
<section aria-labelledby="card"><h2 id="card">Card on file</h2><p>${
      customer?.cardLast4 ? `Card ending ${escapeHtml(customer.cardLast4)}` : 'No card on file.'
    }</p>${form(
      'card',
      `<label for="card_number">Card number</label><input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" required>
<p class="hint">Test cards: 4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 and 4000 0000 0000 9995 decline every charge.</p>
<div class="row"><div><label for="expiry">Expiry (MM / YY)</label><input id="expiry" name="expiry" autocomplete="cc-exp" required></div>
<div><label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required></div></div>
<button class="pay" type="submit">Update card</button>`,
      'block',
    )}</section>
<section aria-labelledby="details"><h2 id="details">Billing details</h2><p class="hint">Shown on your receipts.</p>${form(
      'details',
      `${details}<button class="pay" type="submit">Save billing details</button>`,
      'block',
    )}</section>
<section aria-labelledby="payments"><h2 id="payments">Payments</h2>${
      paymentRows
        ? `<div class="wrap"><table class="stack"><thead><tr><th scope="col">Date</th><th scope="col">Description</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col"><span class="hint">Receipt</span></th></tr></thead><tbody>${paymentRows}</tbody></table></div>`
        : '<p>No payments yet.</p>'
    }</section>
<p><a href="${escapeHtml(view.returnUrl)}">Return to the portal</a></p>`,
    WHAT,
    NOTICE,
  );
}

function receiptPage(p: PaymentRow, base: string): string {
  const rows = p.lines
    .map(
      (l) =>
        `<tr><td>${l.quantity} × ${escapeHtml(l.name)}</td><td class="n">${escapeHtml(formatPrice(l.unit_amount * l.quantity, p.currency as Currency))}</td></tr>`,
    )
    .join('');
  const billed = p.billing ? billingLines(p.billing) : [];
  return page(
    'Receipt',
    `<h1>Receipt</h1><section aria-labelledby="r"><h2 id="r">${escapeHtml(p.description)}</h2>
<p>Date: ${day(p.createdAt)}<br>Receipt number: ${escapeHtml(p.id)}</p>
<table>${rows}<tr><td><strong>Total</strong></td><td class="n"><strong>${escapeHtml(formatPrice(p.amount, p.currency as Currency))}</strong></td></tr>${
      p.refundedAmount
        ? `<tr><td>Refunded</td><td class="n">${escapeHtml(formatPrice(p.refundedAmount, p.currency as Currency))}</td></tr>`
        : ''
    }</table>
${billed.length ? `<p>Billed to:<br>${billed.map(escapeHtml).join('<br>')}</p>` : ''}</section>
<p><a href="${base}">Back to billing</a></p>`,
    WHAT,
    NOTICE,
  );
}

async function sandboxBillingRoutes(app: FastifyInstance, { config, services }: RouteOptions): Promise<void> {
  const { billing } = services;
  const { formToken, html, fromOurOrigin, tokenMatches } = sandboxForms(app, config, 'sandbox-billing-form');

  const gone = (reply: FastifyReply) =>
    html(
      reply,
      404,
      page(
        'Not found',
        '<h1>This billing link has expired</h1><p>Open Update Payment Info in the portal again.</p>',
        WHAT,
        NOTICE,
      ),
    );

  type Req = FastifyRequest<{ Params: { id: string } }>;
  const base = (id: string) => `/sandbox/billing/${encodeURIComponent(id)}`;

  const render = async (
    reply: FastifyReply,
    status: number,
    session: { id: string; userId: string; returnUrl: string },
    message?: View['message'],
  ) =>
    html(
      reply,
      status,
      await billingPage(services, session.userId, {
        base: base(session.id),
        token: formToken(session.id),
        returnUrl: session.returnUrl,
        message,
      }),
    );

  app.get<{ Params: { id: string }; Querystring: { done?: string } }>(
    '/sandbox/billing/:id',
    async (request, reply) => {
      const session = await billing.portalSession(request.params.id);
      if (!session) return gone(reply);
      const done = request.query.done && DONE[request.query.done];
      return render(reply, 200, session, done ? { ok: true, text: done } : undefined);
    },
  );

  app.get<{ Params: { id: string; payment: string } }>(
    '/sandbox/billing/:id/receipts/:payment',
    async (request, reply) => {
      const session = await billing.portalSession(request.params.id);
      if (!session) return gone(reply);
      const payment = await billing.payment(request.params.payment);
      if (!payment || payment.userId !== session.userId || payment.status !== 'paid')
        return html(reply, 404, page('Not found', '<h1>No such receipt</h1>', WHAT, NOTICE));
      return html(reply, 200, receiptPage(payment, base(session.id)));
    },
  );

  /** The portal session of a post: ours by origin and token, else an answer has been sent. */
  async function posted(request: Req, reply: FastifyReply) {
    if (!fromOurOrigin(request)) {
      html(
        reply,
        403,
        page('Refused', '<h1>Refused</h1><p>This form can only be sent from the billing page.</p>', WHAT, NOTICE),
      );
      return undefined;
    }
    const session = await billing.portalSession(request.params.id);
    if (!session) {
      gone(reply);
      return undefined;
    }
    const body = (request.body ?? {}) as Form;
    if (!tokenMatches(body, session.id)) {
      html(
        reply,
        403,
        page('Refused', '<h1>Refused</h1><p>This form has expired; open the billing page again.</p>', WHAT, NOTICE),
      );
      return undefined;
    }
    return { session, body };
  }

  /** Runs a change; a refusal re-renders the page with its message, a success goes back to the page. */
  const act = (name: string, run: (userId: string, body: Form) => Promise<string | undefined>) =>
    app.post<{ Params: { id: string } }>(`/sandbox/billing/:id/${name}`, async (request, reply) => {
      const p = await posted(request, reply);
      if (!p) return reply;
      try {
        const problem = await run(p.session.userId, p.body);
        if (problem) return render(reply, 400, p.session, { ok: false, text: problem });
      } catch (err) {
        if (err instanceof ApiError)
          return render(reply, err.status, p.session, { ok: false, text: err.message.replace(/^[\w.]+: /, '') });
        throw err;
      }
      return reply.redirect(`${base(p.session.id)}?done=${name}`, 303);
    });

  act('plan', async (userId, body) => {
    await billing.changePlan(userId, String(body.price_id ?? ''));
    return undefined;
  });
  act('cancel', async (userId, body) => {
    await billing.setCancelAtPeriodEnd(userId, String(body.subscription ?? ''), true);
    return undefined;
  });
  act('resume', async (userId, body) => {
    await billing.setCancelAtPeriodEnd(userId, String(body.subscription ?? ''), false);
    return undefined;
  });
  act('card', async (userId, body) => {
    const number = String(body.card_number ?? '').replace(/[\s-]/g, '');
    if (!/^\d{12,19}$/.test(number) || !luhn(number)) return 'Card number: not a valid card number';
    const expiry = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(String(body.expiry ?? '').trim());
    if (!expiry) return 'Expiry: required as MM / YY';
    const month = Number(expiry[1]);
    const year = Number(expiry[2]?.length === 2 ? `20${expiry[2]}` : expiry[2]);
    if (month < 1 || month > 12) return 'Expiry: the month must be 01 to 12';
    if (Date.UTC(year, month, 1) <= services.payments.now().getTime()) return 'Expiry: the card has expired';
    if (!/^\d{3,4}$/.test(String(body.cvc ?? '').trim())) return 'CVC: 3 or 4 digits';
    await billing.updateCard(userId, number);
    return undefined;
  });
  act('details', async (userId, body) => {
    const v = (k: string) => String(body[k] ?? '').trim();
    for (const [k, label, , required] of DETAIL_FIELDS) {
      if (required && !v(k)) return `${label}: required`;
      if (v(k).length > 200) return `${label}: at most 200 characters`;
    }
    if (v('vat_number') && !/^[A-Z]{2}[0-9A-Z]{2,13}$/.test(v('vat_number').replace(/\s/g, '').toUpperCase()))
      return 'VAT number: two letters then 2 to 13 letters or digits, like GB123456789';
    const customer = await billing.customer(userId);
    await billing.saveBillingDetails(userId, {
      name: v('name'),
      email: customer?.billing?.email ?? '',
      line1: v('line1'),
      city: v('city'),
      postcode: v('postcode'),
      country: v('country'),
      company: v('company'),
      vatNumber: v('vat_number').replace(/\s/g, '').toUpperCase(),
    });
    return undefined;
  });
}

export const sandboxBillingPlugin = fp(sandboxBillingRoutes, {
  name: 'sandbox-billing-routes',
  dependencies: ['security'],
  encapsulate: true,
});
