import { ApiError, type Currency, formatPrice } from '@portal/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { mailDay } from '../../lib/mail-layout.ts';
import { escapeHtml } from '../../lib/mailer.ts';
import type { RouteOptions } from '../../services.ts';
import type { PlanChangeParams } from './billing.service.ts';
import { withSessionId } from './payment.provider.ts';
import type { CheckoutSessionRow } from './payment.repository.ts';
import { STYLE } from './sandbox.routes.ts';
import { type Form, sandboxForms } from './sandbox-forms.ts';

/**
 * The review of a plan change (issue 31 finding 9, docs/decisions/066): Upgrade Now for a customer
 * with a plan "creates a checkout session, then redirects" (spec/001 §2) to this page, served by this
 * server in both modes, like the sandbox's hosted checkout: the new plan and price, the prorated
 * amount due today, the next renewal, the card, Confirm and Back. Nothing is charged before Confirm;
 * Back goes to the cancel URL. The session id is the capability; posts carry a token of the page and
 * must come from our own origin. No script (the CSP forbids inline script; plain forms need none).
 */

const INTERVAL_WORD: Record<PlanChangeParams['interval'], string> = {
  day: 'day',
  week: 'week',
  month: 'month',
  year: 'year',
};

function reviewDocument(title: string, body: string, sandbox: boolean): string {
  const banner = sandbox
    ? '<p class="banner" role="note">Sandbox — no real payment. The card on file is a test card and nothing is charged.</p>'
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)} · Plan change</title><style>${STYLE}</style></head><body><main>${banner}${body}</main></body></html>`;
}

function reviewPage(
  s: CheckoutSessionRow,
  p: PlanChangeParams,
  token: string,
  sandbox: boolean,
  error?: string,
): string {
  const money = (n: number) => escapeHtml(formatPrice(n, p.currency as Currency));
  const per = INTERVAL_WORD[p.interval];
  const action = `/billing/review/${encodeURIComponent(s.id)}`;
  const rows = [
    ['New plan', escapeHtml(p.product_name)],
    ['Price', `${money(p.unit_amount)}/${per}`],
    ['Due today (prorated)', `<strong data-testid="due-today">${money(p.amount)}</strong>`],
    ['Next renewal', `${escapeHtml(mailDay(new Date(p.next_renewal_at)))}: ${money(p.next_renewal_amount)}`],
    ['Card', escapeHtml(p.card || 'The card on your subscription')],
  ]
    .map(([k, v]) => `<tr><th scope="row">${k}</th><td class="n">${v}</td></tr>`)
    .join('');
  const explain =
    p.amount > 0
      ? `Your plan changes from ${escapeHtml(p.from_tier)} to ${escapeHtml(p.to_tier)} now. You pay the difference for the rest of this period today; from the next renewal you pay the new price.`
      : `Your plan changes from ${escapeHtml(p.from_tier)} to ${escapeHtml(p.to_tier)} now. Nothing is due today; from the next renewal you pay the new price.`;
  return reviewDocument(
    'Review your plan change',
    `<h1>Review your plan change</h1>${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<section aria-labelledby="change"><h2 id="change">${escapeHtml(p.from_tier)} to ${escapeHtml(p.to_tier)}</h2><p>${explain}</p>
<table aria-label="Plan change">${rows}</table></section>
<section aria-label="Confirm or go back"><p class="hint">Nothing is charged until you confirm.</p>
<form method="post" action="${action}/confirm" class="inline"><input type="hidden" name="token" value="${token}"><button class="pay" type="submit">Confirm</button></form>
<form method="post" action="${action}/back" class="inline"><input type="hidden" name="token" value="${token}"><button class="cancel" type="submit">Back</button></form></section>`,
    sandbox,
  );
}

function closedPage(s: CheckoutSessionRow, sandbox: boolean): string {
  if (s.status === 'paid')
    return reviewDocument(
      'Confirmed',
      `<h1>This plan change is confirmed</h1><p><a href="${escapeHtml(withSessionId(s.successUrl, s.id))}">Continue to the portal</a></p>`,
      sandbox,
    );
  return reviewDocument(
    'Cancelled',
    `<h1>This plan change was cancelled</h1><p>Nothing was charged and your plan did not change.</p><p><a href="${escapeHtml(s.cancelUrl)}">Back to the portal</a></p>`,
    sandbox,
  );
}

async function planReviewRoutes(app: FastifyInstance, { config, services }: RouteOptions): Promise<void> {
  const { payments } = services;
  const sandbox = payments.provider.kind === 'sandbox';
  const { formToken, html, fromOurOrigin, tokenMatches } = sandboxForms(app, config, 'plan-review-form');

  const notFound = (reply: FastifyReply) =>
    html(
      reply,
      404,
      reviewDocument('Not found', '<h1>No such plan change</h1><p>This plan change does not exist.</p>', sandbox),
    );

  /** The plan change of a post: ours by origin and token, else an answer has been sent. */
  async function posted(request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) {
    if (!fromOurOrigin(request)) {
      html(
        reply,
        403,
        reviewDocument('Refused', '<h1>Refused</h1><p>This form can only be sent from the review page.</p>', sandbox),
      );
      return undefined;
    }
    const found = await payments.planChangeSession(request.params.id);
    if (!found) {
      notFound(reply);
      return undefined;
    }
    if (!tokenMatches((request.body ?? {}) as Form, found.session.id)) {
      html(
        reply,
        403,
        reviewDocument('Refused', '<h1>Refused</h1><p>This form has expired; open the review again.</p>', sandbox),
      );
      return undefined;
    }
    return found;
  }

  app.get<{ Params: { id: string } }>('/billing/review/:id', async (request, reply) => {
    const found = await payments.planChangeSession(request.params.id);
    if (!found) return notFound(reply);
    if (found.session.status !== 'open') return html(reply, 200, closedPage(found.session, sandbox));
    return html(reply, 200, reviewPage(found.session, found.params, formToken(found.session.id), sandbox));
  });

  app.post<{ Params: { id: string } }>('/billing/review/:id/confirm', async (request, reply) => {
    const found = await posted(request, reply);
    if (!found) return reply;
    const { session, params } = found;
    // Confirmed before (a double click, a replay): the same answer, nothing charged again.
    if (session.status === 'paid') return reply.redirect(withSessionId(session.successUrl, session.id), 303);
    if (session.status !== 'open') return html(reply, 409, closedPage(session, sandbox));
    try {
      await payments.confirmPlanChange(session.id);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const message = err.message.replace(/^[\w.]+: /, '');
      const status = err.errorName === 'PAYMENT' ? 402 : err.status;
      return html(reply, status, reviewPage(session, params, formToken(session.id), sandbox, message));
    }
    return reply.redirect(withSessionId(session.successUrl, session.id), 303);
  });

  app.post<{ Params: { id: string } }>('/billing/review/:id/back', async (request, reply) => {
    const found = await posted(request, reply);
    if (!found) return reply;
    const after = await payments.cancelPlanChange(found.session.id);
    if (after?.status === 'paid') return html(reply, 409, closedPage(after, sandbox));
    return reply.redirect(found.session.cancelUrl, 303);
  });
}

export const planReviewPlugin = fp(planReviewRoutes, {
  name: 'plan-review-routes',
  dependencies: ['security'],
  encapsulate: true,
});
