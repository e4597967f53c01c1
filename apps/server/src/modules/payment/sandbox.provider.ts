import { randomBytes } from 'node:crypto';
import type { PaymentProduct } from '@portal/contract';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Catalogue } from './catalogue.ts';
import type { CheckoutInput, PaymentProvider, ProviderSession } from './payment.provider.ts';
import { paymentRepository as repo } from './payment.repository.ts';

/**
 * The sandbox provider (docs/decisions/017): no money moves. Its hosted checkout is served by this
 * server under /sandbox/checkout/:id (sandbox.routes.ts), whose Pay calls the same fulfilment as
 * Stripe's webhook. Sessions live only in the checkout_sessions table.
 */
export class SandboxProvider implements PaymentProvider {
  readonly kind = 'sandbox';

  constructor(
    private readonly db: Db,
    private readonly catalogue: Catalogue,
    private readonly publicUrl: string,
    private readonly clock: Clock,
  ) {}

  knownProducts(): Promise<PaymentProduct[]> {
    return this.products();
  }

  async products(): Promise<PaymentProduct[]> {
    return this.catalogue.products;
  }

  async createCustomer(): Promise<string> {
    return `cus_sandbox_${randomBytes(12).toString('hex')}`;
  }

  async createCheckoutSession(_input: CheckoutInput): Promise<{ id: string; url: string }> {
    // 128 random bits: the id is the capability to open the hosted page, as with Stripe's.
    const id = `cs_sandbox_${randomBytes(16).toString('hex')}`;
    return { id, url: `${this.publicUrl}/sandbox/checkout/${id}` };
  }

  async retrieveSession(id: string): Promise<ProviderSession> {
    const row = await repo.session(this.db, id);
    return {
      paid: row?.status === 'paid',
      expired: row?.status === 'expired',
      billing: row?.billing ?? undefined,
      subscriptionId: row?.lines.some((l) => l.interval) ? sandboxSubscriptionId(id) : undefined,
    };
  }

  // The sandbox's subscriptions are the portal's rows: the lifecycle changes them (docs/decisions/019).
  async changePlan(): Promise<void> {}
  async previewPlanChange(): Promise<undefined> {
    return undefined;
  }
  async setCancelAtPeriodEnd(): Promise<void> {}
  async cancelNow(): Promise<void> {}

  async billingPortal(input: { customerId: string; userId: string; returnUrl: string }): Promise<string> {
    // 128 random bits, short-lived: the capability to open the billing page, like Stripe's portal URL.
    const id = `bps_sandbox_${randomBytes(16).toString('hex')}`;
    const now = this.clock.now();
    await repo.insertPortalSession(this.db, {
      id,
      userId: input.userId,
      returnUrl: input.returnUrl,
      createdAt: now,
      expiresAt: new Date(now.getTime() + BILLING_PORTAL_TTL_MS),
    });
    return `${this.publicUrl}/sandbox/billing/${id}`;
  }

  async refund(): Promise<string> {
    return `re_sandbox_${randomBytes(12).toString('hex')}`;
  }
}

/** How long a sandbox billing-page address works (Stripe's portal sessions are short-lived too). */
export const BILLING_PORTAL_TTL_MS = 60 * 60 * 1000;

/** The sandbox's subscription id of a session's recurring lines, as Stripe names one per checkout. */
export function sandboxSubscriptionId(sessionId: string): string {
  return `sub_sandbox_${sessionId.replace(/^cs_sandbox_/, '')}`;
}
