import { randomBytes } from 'node:crypto';
import {
  ApiError,
  type CheckoutLine,
  type Currency,
  canPurchaseTime,
  ONE_DAY_S,
  type PaymentPrice,
  type PaymentProduct,
  type Purchase,
  timePackagePrice,
} from '@portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../../db/client.ts';
import type { BillingDetails, SessionLine } from '../../db/tables/payment.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { PortalAddress } from '../../lib/portal-address.ts';
import type { AuditInput, AuditService } from '../audit/audit.service.ts';
import type { Caller } from '../auth/auth.sessions.ts';
import type { LicenseService } from '../license/license.service.ts';
import { planOfPrice, type SubscriptionService } from '../subscriptions/subscriptions.service.ts';
import type { TimeService } from '../time/time.service.ts';
import type { BillingService } from './billing.service.ts';
import { isFreePlan, kindOf, MINUTES_KEY } from './catalogue.ts';
import { cancelSubscriptionKey, intentKey, OUTBOX_KINDS, Outbox, providerOfRef } from './outbox.ts';
import { checkoutReceiptMail } from './payment.mails.ts';
import type { PaymentProvider } from './payment.provider.ts';
import { orderReference } from './payment.reference.ts';
import { type CheckoutSessionRow, paymentRepository as repo } from './payment.repository.ts';
import { sandboxSubscriptionId } from './sandbox.provider.ts';

/** A robot-driver license sold is a yearly subscription (spec/001 §3 duration in seconds). */
export const DRIVER_TERM_S = 365 * ONE_DAY_S;

const INTERVAL_S: Record<NonNullable<SessionLine['interval']>, number> = {
  day: ONE_DAY_S,
  week: 7 * ONE_DAY_S,
  month: 30 * ONE_DAY_S,
  year: 365 * ONE_DAY_S,
};

export interface PaymentPeers {
  licenses: LicenseService;
  time: TimeService;
  subscriptions: SubscriptionService;
  billing: BillingService;
  /** the audit trail: a fulfilled or expired checkout, by Stripe's event or the customer (docs/decisions/072) */
  audit?: AuditService;
}

/** A Confirm's claim this old, its session still open, was left by a Confirm that never finished. */
const STALE_CLAIM_MS = 5 * 60_000;
/** How many times (every 100 ms) a second Confirm looks for the first one's outcome. */
const DECIDED_ELSEWHERE_POLLS = 150;

/** The id prefix of a plan change's session (reviewed on the server's own page, never at a provider). */
export const PLAN_CHANGE_SESSION = 'cs_change_';

/** What a fulfilment granted: for the receipt, the logs and the tests. */
export interface Granted {
  sessionId: string;
  licenses: { licenseId: string; code: string; model: string }[];
  minutes: number;
  /** provider subscriptions of plans a plan bought here replaced */
  replacedPlans: string[];
}

/**
 * The buying path (docs/architecture.md#commerce, docs/decisions/017): HandlePurchase prices the
 * cart from the provider's catalogue, ConfirmPurchase and the provider's callbacks (the sandbox's
 * Pay, Stripe's webhook) all end in `fulfil`, which grants once per session.
 */
export class PaymentService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly mailer: Mailer,
    readonly provider: PaymentProvider,
    private readonly address: PortalAddress,
    private readonly peers: PaymentPeers,
    private readonly log?: FastifyBaseLogger,
    private readonly outbox: Outbox = new Outbox(db, clock, provider, log),
  ) {}

  /**
   * A session by id, whoever owns it (the sandbox's hosted page: the id is the capability). A plan
   * change's session is not a checkout to pay: its page is the review (planChangeSession).
   */
  async session(id: string): Promise<CheckoutSessionRow | undefined> {
    if (id.startsWith(PLAN_CHANGE_SESSION)) return undefined;
    return repo.session(this.db, id);
  }

  /** Whether a provider's webhook event was handled before. */
  async eventSeen(id: string): Promise<boolean> {
    return repo.eventRecorded(this.db, id);
  }

  /** Records a handled webhook event id (once; a second record is a no-op). */
  async recordEvent(id: string, type: string): Promise<void> {
    await repo.recordEvent(this.db, { id, type, receivedAt: this.clock.now() });
  }

  now(): Date {
    return this.clock.now();
  }

  products(): Promise<PaymentProduct[]> {
    return this.provider.products();
  }

  /** GetCustomerID: the user's customer at the provider, created on first use. */
  async customerId(caller: Pick<Caller, 'userId' | 'email'>): Promise<string> {
    const existing = await repo.customerOf(this.db, caller.userId);
    if (existing && existing.provider === this.provider.kind) return existing.customerId;
    const created = await this.provider.createCustomer({ userId: caller.userId, email: caller.email });
    const saved = await repo.saveCustomer(this.db, {
      userId: caller.userId,
      customerId: created,
      provider: this.provider.kind,
      createdAt: this.clock.now(),
    });
    return saved?.customerId ?? created;
  }

  /**
   * success_url and cancel_url must lead back to this portal: a checkout never sends the buyer
   * elsewhere. Any host it serves will do, the buyer's session being stored on the page's own.
   */
  private checkReturnUrl(url: string, field: string): void {
    this.address.checkReturnAddress(url, field);
  }

  /**
   * Prices the cart from the catalogue (the request carries no amounts; a client's amount is never
   * read) and opens a checkout at the provider.
   */
  async purchase(
    caller: Pick<Caller, 'userId' | 'email'>,
    input: { customerId?: string | undefined; lines: CheckoutLine[]; successUrl: string; cancelUrl: string },
  ): Promise<{ session_id: string; session_url: string; amount: number; currency: Currency }> {
    this.checkReturnUrl(input.successUrl, 'session.success_url');
    this.checkReturnUrl(input.cancelUrl, 'session.cancel_url');
    const customerId = await this.customerId(caller);
    if (input.customerId && input.customerId !== customerId)
      throw new ApiError('FORBIDDEN', 'customer_id: is not the signed-in account’s customer');

    const catalogue = new Map((await this.provider.products()).map((p) => [p.id, p]));
    const now = this.clock.now();
    const tier = (await this.peers.subscriptions.tierOf(this.db, caller.userId, now))?.tier ?? 'Lite';
    const lines: SessionLine[] = [];
    let currency: Currency | undefined;
    let interval: SessionLine['interval'] = null;
    input.lines.forEach((line, i) => {
      const at = `session.products.${i}`;
      const product = catalogue.get(line.id);
      if (!product) throw new ApiError('VALIDATION', `${at}.id: no product with this id in the catalogue`);
      const kind = kindOf(product);
      if (!kind) throw new ApiError('VALIDATION', `${at}.id: this product is not for sale`);
      if (kind === 'plan') {
        // Plans are sold one at a time (issue 31 finding 8): one unit is one plan, and one plan runs.
        if (line.quantity !== 1)
          throw new ApiError('VALIDATION', `${at}.quantity: a plan is sold one at a time; the quantity must be 1`);
        if (lines.some((l) => l.kind === 'plan'))
          throw new ApiError('VALIDATION', `${at}.id: a cart holds one plan; remove the other plan first`);
      }
      let price: PaymentPrice | undefined;
      if (kind === 'time') {
        if (!canPurchaseTime(tier))
          throw new ApiError('VALIDATION', `${at}.id: Pro subscribers have infinite dial time and cannot buy more`);
        // spec/001 §9: the price shown (and charged) is the tier's, whatever price the cart names.
        const chosen = product.prices.find((p) => p.id === line.selected_price_id);
        const sameCurrency = product.prices.filter(
          (p) => p.currency === (chosen?.currency ?? product.prices[0]?.currency),
        );
        price = timePackagePrice(sameCurrency, tier);
      } else {
        if (kind === 'plan' && isFreePlan(product))
          throw new ApiError('VALIDATION', `${at}.id: Lite is the tier of every account and is not sold`);
        price = product.prices.find((p) => p.id === line.selected_price_id);
        if (!price) throw new ApiError('VALIDATION', `${at}.selected_price_id: not a price of this product`);
      }
      if (!price) throw new ApiError('VALIDATION', `${at}.id: this product has no price`);
      if (currency && price.currency !== currency)
        throw new ApiError(
          'VALIDATION',
          `${at}.selected_price_id: the cart mixes currencies (${currency} and ${price.currency}); one checkout is in one currency`,
        );
      currency = price.currency;
      const lineInterval = price.type === 'recurring' ? (price.recurring?.interval ?? null) : null;
      if (lineInterval && interval && lineInterval !== interval)
        throw new ApiError(
          'VALIDATION',
          `${at}.selected_price_id: a checkout renews on one schedule; this ${lineInterval}ly price cannot join ${interval}ly ones`,
        );
      interval = lineInterval ?? interval;
      lines.push({
        product_id: product.id,
        price_id: price.id,
        name: product.name,
        kind,
        quantity: line.quantity,
        unit_amount: price.unit_amount,
        interval: lineInterval,
      });
    });
    if (!currency) throw new ApiError('VALIDATION', 'session.products: The cart is empty');
    const planAt = lines.findIndex((l) => l.kind === 'plan');
    const live = planAt >= 0 ? await this.peers.subscriptions.livePlan(caller.userId) : undefined;
    // A plan of the other provider (the sandbox's, before the switch to Stripe) cannot be changed
    // here: the purchase is a checkout, whose fulfilment ends that plan at once (issue 31 finding 7a).
    if (live?.stripeId && providerOfRef(live.stripeId) === this.provider.kind)
      return this.changePlanAsPurchase(caller, {
        lines,
        planAt,
        customerId,
        successUrl: input.successUrl,
        cancelUrl: input.cancelUrl,
      });
    const amount = lines.reduce((sum, l) => sum + l.unit_amount * l.quantity, 0);
    const sessionCurrency: Currency = currency;

    // Intent first (docs/decisions/066): the row is committed before Stripe is called and the
    // session is made under its key, so a retried request makes one session and a new one another.
    const intent = await repo.insertIntent(this.db, {
      userId: caller.userId,
      kind: 'checkout',
      params: { customer_id: customerId, lines, amount, currency },
      createdAt: now,
      updatedAt: now,
    });
    let created: { id: string; url: string };
    try {
      created = await this.provider.createCheckoutSession({
        idempotencyKey: intentKey(intent),
        customerId,
        userId: caller.userId,
        lines,
        currency,
        successUrl: input.successUrl,
        cancelUrl: input.cancelUrl,
      });
    } catch (err) {
      await repo.settleIntent(this.db, intent.id, { status: 'failed', now: this.clock.now() });
      throw err;
    }
    await this.db.transaction(async (tx) => {
      await repo.insertSession(tx, {
        id: created.id,
        userId: caller.userId,
        userEmail: caller.email,
        provider: this.provider.kind,
        customerId,
        intentId: intent.id,
        lines,
        amount,
        currency: sessionCurrency,
        successUrl: input.successUrl,
        cancelUrl: input.cancelUrl,
        url: created.url,
        status: 'open',
        createdAt: now,
        updatedAt: now,
      });
      await repo.settleIntent(tx, intent.id, { status: 'done', providerRef: created.id, now: this.clock.now() });
    });
    return { session_id: created.id, session_url: created.url, amount, currency };
  }

  /**
   * A plan bought by a user who has one already (docs/decisions/019): an upgrade or downgrade of the
   * existing subscription in place, never a second plan. Reviewed before it is charged (issue 31,
   * docs/decisions/066): the session is the server's own review page, showing what the plan_change
   * intent holds (the prorated amount due today, the next renewal, the card); nothing is charged
   * until its Confirm (`confirmPlanChange`), and its Back cancels it.
   */
  private async changePlanAsPurchase(
    caller: Pick<Caller, 'userId' | 'email'>,
    input: { lines: SessionLine[]; planAt: number; customerId: string; successUrl: string; cancelUrl: string },
  ) {
    const line = input.lines[input.planAt] as SessionLine;
    if (input.lines.length > 1 || line.quantity !== 1)
      throw new ApiError(
        'VALIDATION',
        `session.products.${input.planAt}.id: you have a plan; changing it is a checkout of the new plan alone, quantity 1`,
      );
    const intent = await this.peers.billing.planChangeIntent(
      caller.userId,
      line.price_id,
      `session.products.${input.planAt}.selected_price_id`,
    );
    const held = intent.params as { amount: number; currency: Currency };
    const now = this.clock.now();
    // 128 random bits: the id is the capability to open the review page, as a checkout's is.
    const id = `${PLAN_CHANGE_SESSION}${randomBytes(16).toString('hex')}`;
    const url = `${this.address.url}/billing/review/${id}`;
    // One charge now, the prorated difference: not a price per interval (the review shows the renewal).
    const lines: SessionLine[] = [
      { ...line, name: `${line.name} (plan change)`, unit_amount: held.amount, interval: null },
    ];
    await repo.insertSession(this.db, {
      id,
      userId: caller.userId,
      userEmail: caller.email,
      provider: this.provider.kind,
      customerId: input.customerId,
      intentId: intent.id,
      lines,
      amount: held.amount,
      currency: held.currency,
      successUrl: input.successUrl,
      cancelUrl: input.cancelUrl,
      url,
      status: 'open',
      createdAt: now,
      updatedAt: now,
    });
    return { session_id: id, session_url: url, amount: held.amount, currency: held.currency };
  }

  /** A plan change's session and what its intent holds, for the review page; undefined when there is none. */
  async planChangeSession(id: string) {
    if (!id.startsWith(PLAN_CHANGE_SESSION)) return undefined;
    const session = await repo.session(this.db, id);
    const change = session?.intentId ? await this.peers.billing.planChangeOf(session.intentId) : undefined;
    return session && change ? { session, ...change } : undefined;
  }

  /**
   * Confirm on the review page: the plan change is charged as reviewed, once however often it is
   * sent, and its session becomes paid, so Payment Successful shows the amount charged. The session's
   * fulfilment row is claimed (committed) before the provider is called: of two Confirms (a double
   * click) one calls, the other waits for its outcome; a provider failure releases the claim.
   */
  async confirmPlanChange(id: string): Promise<CheckoutSessionRow> {
    const found = await this.planChangeSession(id);
    if (!found) throw new ApiError('NOT_FOUND', 'session_id: no plan change with this id');
    const { session } = found;
    if (session.status === 'expired')
      throw new ApiError('CONFLICT', 'session_id: this plan change was cancelled; nothing was charged');
    if (session.status === 'paid') return session;
    if (!(await repo.claimFulfilment(this.db, id, this.clock.now())) && !(await this.claimIsStale(id)))
      return this.decidedElsewhere(id);
    let changed: Awaited<ReturnType<BillingService['confirmPlanChange']>>;
    try {
      changed = await this.peers.billing.confirmPlanChange(found.intent.id, 'session_id');
    } catch (err) {
      await repo.releaseFulfilment(this.db, id);
      throw err;
    }
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      await repo.markPaid(tx, id, { billing: null, subscriptionId: null, now });
      // The charge was recorded before its session was paid; linked now, Payment Successful shows its reference.
      if (changed.paymentId) await repo.updatePayment(tx, changed.paymentId, { sessionId: id });
    });
    return (await repo.session(this.db, id)) ?? session;
  }

  /**
   * A Confirm or Back that lost the race to another: waits (briefly) for the other's outcome, the
   * state of the session, never the time it takes; paid answers the session, anything else refuses.
   */
  private async decidedElsewhere(id: string): Promise<CheckoutSessionRow> {
    for (let i = 0; i < DECIDED_ELSEWHERE_POLLS; i++) {
      const row = await repo.session(this.db, id);
      if (row?.status === 'paid') return row;
      if (row?.status === 'expired')
        throw new ApiError('CONFLICT', 'session_id: this plan change was cancelled; nothing was charged');
      if (!(await repo.fulfilmentClaimedAt(this.db, id)))
        throw new ApiError('CONFLICT', 'session_id: this plan change could not be charged; try again');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new ApiError('CONFLICT', 'session_id: this plan change is still being confirmed; reload this page');
  }

  /**
   * A claim left by a Confirm that never finished (the instance stopped mid-call): after a while the
   * next Confirm takes over. Safe, as the provider write is the intent's (same key, same payment record).
   */
  private async claimIsStale(id: string): Promise<boolean> {
    const at = await repo.fulfilmentClaimedAt(this.db, id);
    return !!at && this.clock.now().getTime() - at.getTime() > STALE_CLAIM_MS;
  }

  /** Back on the review page: the plan change is cancelled and nothing is charged. Answers the session. */
  async cancelPlanChange(id: string): Promise<CheckoutSessionRow | undefined> {
    const found = await this.planChangeSession(id);
    if (!found) return undefined;
    if (found.session.status !== 'open') return found.session;
    // Back claims the session as Confirm does: a Confirm under way (or done) wins, and the change stands.
    if (!(await repo.claimFulfilment(this.db, id, this.clock.now()))) {
      try {
        return await this.decidedElsewhere(id);
      } catch {
        return repo.session(this.db, id);
      }
    }
    await this.peers.billing.cancelPlanChange(found.intent.id);
    await repo.expire(this.db, id, this.clock.now());
    return repo.session(this.db, id);
  }

  /**
   * A session as the success page shows it: its lines, and once paid the order reference and date
   * of its payment row and the pairing code of each driver it sold.
   */
  async purchaseView(row: CheckoutSessionRow): Promise<Purchase> {
    const paid = row.status === 'paid' ? await repo.paymentOfSession(this.db, row.id) : undefined;
    const sold = row.status === 'paid' ? await repo.driverSubscriptionsOfSession(this.db, row.id) : [];
    const licenses = new Map(
      (
        await this.peers.licenses.byIds(
          this.db,
          sold.map((s) => s.robotLicenseId),
        )
      ).map((l) => [l.id, this.peers.licenses.ownerView(l)]),
    );
    return {
      session_id: row.id,
      status: row.status,
      amount: row.amount,
      currency: row.currency as Currency,
      lines: row.lines.map((l) => ({
        product_id: l.product_id,
        name: l.name,
        quantity: l.quantity,
        unit_amount: l.unit_amount,
        ...(l.interval ? { interval: l.interval } : {}),
      })),
      reference: paid ? orderReference(paid.id) : '',
      ...(paid ? { paid_at: paid.createdAt.getTime() } : {}),
      pairings: sold.flatMap((s) => {
        const license = licenses.get(s.robotLicenseId);
        return license ? [{ robot_model: license.robot_model, pair_code: license.pair_code }] : [];
      }),
    };
  }

  /**
   * ConfirmPurchase: the success page's view of the caller's own session. A session the provider
   * holds as paid is fulfilled now if the webhook has not done it yet (once, whichever comes first).
   */
  async confirm(caller: Pick<Caller, 'userId'>, sessionId: string): Promise<Purchase> {
    const row = await repo.sessionOf(this.db, sessionId, caller.userId);
    if (!row) throw new ApiError('NOT_FOUND', 'session_id: no checkout session with this id on your account');
    // A plan change is not at the provider: its Confirm on the review page pays it.
    if (row.status === 'open' && !row.id.startsWith(PLAN_CHANGE_SESSION)) {
      const remote = await this.provider.retrieveSession(sessionId);
      if (remote.paid)
        await this.fulfil(sessionId, {
          billing: remote.billing,
          subscriptionId: remote.subscriptionId,
          paymentRef: remote.paymentRef,
          paymentIntentId: remote.paymentIntentId,
        });
      else if (remote.expired) await this.expire(sessionId);
    }
    const after = await repo.session(this.db, sessionId);
    return await this.purchaseView(after ?? row);
  }

  /** An abandoned or cancelled session: expired, nothing granted. Answers the row. */
  async expire(sessionId: string, by?: AuditInput['actor']): Promise<CheckoutSessionRow | undefined> {
    await this.db.transaction(async (tx) => {
      if (!(await repo.expire(tx, sessionId, this.clock.now())) || !by) return;
      const row = await repo.session(tx, sessionId);
      await this.peers.audit?.record(tx, {
        actor: by,
        subjectUserId: row?.userId ?? null,
        kind: 'change',
        action: 'checkout.expire',
        target: sessionId,
        changes: { status: { before: 'open', after: 'expired' } },
      });
    });
    return repo.session(this.db, sessionId);
  }

  /**
   * Grants what a paid session sold, once (docs/decisions/017): the fulfilments row's primary key
   * is claimed in the same transaction as every grant, so the webhook, the success page and a
   * replay cannot grant twice, and a failure half-way grants nothing. Answers undefined when the
   * session was fulfilled before (or is unknown).
   */
  async fulfil(
    sessionId: string,
    paid: {
      billing?: BillingDetails | undefined;
      subscriptionId?: string | undefined;
      paymentRef?: string | undefined;
      paymentIntentId?: string | undefined;
    } = {},
    /** who paid it: Stripe's event, else the customer (the success page, the sandbox) */
    by?: AuditInput['actor'],
  ): Promise<Granted | undefined> {
    // Read before the transaction (STYLE 17): no provider call while rows are locked.
    const products = await this.provider.knownProducts();
    const done = await this.db.transaction(async (tx) => {
      const session = await repo.lockSession(tx, sessionId);
      if (!session) return undefined;
      const now = this.clock.now();
      if (!(await repo.claimFulfilment(tx, sessionId, now))) return undefined;
      // The sandbox names one subscription per checkout of recurring lines, as Stripe does.
      const subscriptionId =
        paid.subscriptionId ??
        (session.provider === 'sandbox' && session.lines.some((l) => l.interval)
          ? sandboxSubscriptionId(session.id)
          : '');
      // The customer's company and VAT number (the billing page's) join the checkout's details.
      const customer = await repo.customerOf(tx, session.userId);
      const given = paid.billing ?? session.billing ?? undefined;
      const billing = given
        ? { ...given, company: customer?.billing?.company ?? '', vatNumber: customer?.billing?.vatNumber ?? '' }
        : (customer?.billing ?? undefined);
      await repo.markPaid(tx, sessionId, { billing: billing ?? null, subscriptionId: subscriptionId || null, now });
      if (billing && customer) await repo.updateCustomer(tx, session.userId, { billing });
      const granted = await this.grantLines(tx, session, subscriptionId, now, products);
      // A second plan never keeps running: the one a new plan replaced (ended above, in this
      // transaction) is cancelled at its provider after the commit, through the outbox, retried
      // until it succeeds (docs/decisions/066). A sandbox plan is the portal's own rows: nothing to call.
      for (const ref of granted.replacedPlans)
        if (providerOfRef(ref) === 'stripe')
          await this.outbox.enqueue(tx, OUTBOX_KINDS.cancelSubscription, cancelSubscriptionKey(ref), {
            subscription_ref: ref,
            provider: 'stripe',
            replaced_by: session.id,
          });
      const payment = await repo.insertPayment(tx, {
        userId: session.userId,
        provider: session.provider,
        kind: 'checkout',
        sessionId: session.id,
        subscriptionRef: subscriptionId || null,
        providerRef:
          paid.paymentRef ?? (session.provider === 'sandbox' ? `py_sandbox_${randomBytes(12).toString('hex')}` : ''),
        paymentIntentId: paid.paymentIntentId ?? null,
        description: session.lines.map((l) => `${l.quantity} × ${l.name}`).join(', '),
        lines: session.lines.map((l) => ({ name: l.name, quantity: l.quantity, unit_amount: l.unit_amount })),
        amount: session.amount,
        currency: session.currency,
        status: 'paid',
        billing: billing ?? null,
        createdAt: now,
      });
      // The fulfilment's one change entry, in its transaction (docs/decisions/072).
      await this.peers.audit?.record(tx, {
        actor: by ?? { kind: 'customer', id: session.userId },
        subjectUserId: session.userId,
        kind: 'change',
        action: 'checkout.fulfil',
        target: session.id,
        changes: { status: { before: session.status, after: 'paid' } },
        personal: { amount: session.amount, currency: session.currency, payment: payment?.id ?? '' },
      });
      return { session, granted, billing, reference: payment ? orderReference(payment.id) : session.id };
    });
    if (!done) return undefined;
    if (done.granted.replacedPlans.length > 0) await this.outbox.runSoon();
    await this.peers.subscriptions.reconcile(done.session.userId);
    await this.sendReceipt(done.session, done.billing, done.reference);
    return done.granted;
  }

  private async grantLines(
    tx: Executor,
    session: CheckoutSessionRow,
    subscriptionId: string,
    now: Date,
    products: PaymentProduct[],
  ) {
    const granted: Granted = { sessionId: session.id, licenses: [], minutes: 0, replacedPlans: [] };
    const catalogue = new Map(products.map((p) => [p.id, p]));
    for (const [index, line] of session.lines.entries()) {
      const product = catalogue.get(line.product_id);
      const m = product?.metadata ?? {};
      if (line.kind === 'driver') {
        for (let n = 0; n < line.quantity; n++) {
          const { license, code } = await this.peers.licenses.grantPurchasedDriver(tx, {
            userId: session.userId,
            assetId: m.BOW_UUID ?? '',
            make: m.model ?? line.name,
            model: m.model ?? line.name,
            durationS: DRIVER_TERM_S,
          });
          await repo.insertDriverSubscription(tx, {
            userId: session.userId,
            robotLicenseId: license.id,
            assetId: m.BOW_UUID ?? '',
            sessionId: session.id,
            stripeId: subscriptionId,
            stripeCustomerId: session.customerId,
            durationS: DRIVER_TERM_S,
            priceId: line.price_id,
            status: 'active',
            createdAt: now,
            updatedAt: now,
          });
          granted.licenses.push({ licenseId: license.id, code, model: license.robotModel });
        }
      } else if (line.kind === 'time') {
        const minutes = Number(m[MINUTES_KEY] ?? 0) * line.quantity;
        if (minutes > 0) {
          // The key makes a second credit of this line a no-op even outside the fulfilment claim.
          await this.peers.time.credit(
            session.userId,
            { kind: 'purchase', minutes, reason: `purchase ${line.name}`, idempotencyKey: `${session.id}:${index}` },
            tx,
          );
          granted.minutes += minutes;
        }
      } else if (line.kind === 'plan') {
        const plan = planOfPrice(products, line.price_id);
        if (plan && line.interval)
          granted.replacedPlans.push(
            ...(await this.peers.subscriptions.startPlan(tx, {
              userId: session.userId,
              plan,
              ref: subscriptionId || `sub_unbilled_${session.id}`,
              customerId: session.customerId,
              sessionId: session.id,
              now,
              periodEnd: new Date(now.getTime() + INTERVAL_S[line.interval] * 1000),
            })),
          );
      }
    }
    return granted;
  }

  /** The receipt: what was bought and the billing details. A mail failure never undoes a sale. */
  private async sendReceipt(
    session: CheckoutSessionRow,
    billing: BillingDetails | undefined,
    reference: string,
  ): Promise<void> {
    try {
      await this.mailer.send(
        checkoutReceiptMail({
          // The account's address, never one typed into the form: checkout must not mail strangers.
          to: session.userEmail,
          lines: session.lines,
          amount: session.amount,
          currency: session.currency,
          billing,
          sandbox: session.provider === 'sandbox',
          // The reference Payment Successful shows (purchaseView), so the two can be matched.
          order: reference,
          dashboardLink: `${this.address.url}/dashboard`,
        }),
      );
    } catch (err) {
      this.log?.warn({ err, session: session.id }, 'receipt mail failed');
    }
  }
}
