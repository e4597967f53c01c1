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
import type { Caller } from '../auth/auth.sessions.ts';
import type { LicenseService } from '../license/license.service.ts';
import { planOfPrice, type SubscriptionService } from '../subscriptions/subscriptions.service.ts';
import type { TimeService } from '../time/time.service.ts';
import type { BillingService } from './billing.service.ts';
import { isFreePlan, kindOf, MINUTES_KEY } from './catalogue.ts';
import { checkoutReceiptMail } from './payment.mails.ts';
import { type PaymentProvider, withSessionId } from './payment.provider.ts';
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
}

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
  ) {}

  /** A session by id, whoever owns it (the sandbox's hosted page: the id is the capability). */
  session(id: string): Promise<CheckoutSessionRow | undefined> {
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
    if (planAt >= 0 && (await this.peers.subscriptions.livePlan(caller.userId)))
      return this.changePlanAsPurchase(caller, {
        lines,
        planAt,
        customerId,
        successUrl: input.successUrl,
        cancelUrl: input.cancelUrl,
      });
    const amount = lines.reduce((sum, l) => sum + l.unit_amount * l.quantity, 0);

    const created = await this.provider.createCheckoutSession({
      customerId,
      userId: caller.userId,
      lines,
      currency,
      successUrl: input.successUrl,
      cancelUrl: input.cancelUrl,
    });
    await repo.insertSession(this.db, {
      id: created.id,
      userId: caller.userId,
      userEmail: caller.email,
      provider: this.provider.kind,
      customerId,
      lines,
      amount,
      currency,
      successUrl: input.successUrl,
      cancelUrl: input.cancelUrl,
      url: created.url,
      status: 'open',
      createdAt: now,
      updatedAt: now,
    });
    return { session_id: created.id, session_url: created.url, amount, currency };
  }

  /**
   * A plan bought by a user who has one already (docs/decisions/019): an upgrade or downgrade of the
   * existing subscription in place, never a second plan. It is recorded as a paid session of the
   * plan line (what was charged now, prorated), so the browser goes straight to the success page.
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
    const changed = await this.peers.billing.changePlan(
      caller.userId,
      line.price_id,
      `session.products.${input.planAt}.selected_price_id`,
    );
    const now = this.clock.now();
    const id = `${this.provider.kind === 'sandbox' ? 'cs_sandbox' : 'cs_change'}_${randomBytes(16).toString('hex')}`;
    const lines: SessionLine[] = [{ ...line, name: `${line.name} (plan change)`, unit_amount: changed.amount }];
    await repo.insertSession(this.db, {
      id,
      userId: caller.userId,
      userEmail: caller.email,
      provider: this.provider.kind,
      customerId: input.customerId,
      lines,
      amount: changed.amount,
      currency: changed.currency,
      successUrl: input.successUrl,
      cancelUrl: input.cancelUrl,
      url: withSessionId(input.successUrl, id),
      status: 'paid',
      createdAt: now,
      updatedAt: now,
    });
    await repo.claimFulfilment(this.db, id, now);
    // The charge was recorded before its session existed; linked now, Payment Successful shows its reference.
    if (changed.paymentId) await repo.updatePayment(this.db, changed.paymentId, { sessionId: id });
    return {
      session_id: id,
      session_url: withSessionId(input.successUrl, id),
      amount: changed.amount,
      currency: changed.currency,
    };
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
    if (row.status === 'open') {
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
  async expire(sessionId: string): Promise<CheckoutSessionRow | undefined> {
    await repo.expire(this.db, sessionId, this.clock.now());
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
  ): Promise<Granted | undefined> {
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
      const granted = await this.grantLines(tx, session, subscriptionId, now);
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
      return { session, granted, billing, reference: payment ? orderReference(payment.id) : session.id };
    });
    if (!done) return undefined;
    // A second plan never keeps running: the one a new plan replaced is cancelled at the provider.
    for (const ref of done.granted.replacedPlans) {
      try {
        await this.provider.cancelNow(ref);
      } catch (err) {
        this.log?.error({ err, ref }, 'could not cancel a replaced plan at the provider');
      }
    }
    await this.peers.subscriptions.reconcile(done.session.userId);
    await this.sendReceipt(done.session, done.billing, done.reference);
    return done.granted;
  }

  private async grantLines(tx: Executor, session: CheckoutSessionRow, subscriptionId: string, now: Date) {
    const granted: Granted = { sessionId: session.id, licenses: [], minutes: 0, replacedPlans: [] };
    const products = await this.provider.knownProducts();
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
