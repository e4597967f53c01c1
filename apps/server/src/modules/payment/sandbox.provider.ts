import { randomBytes } from 'node:crypto';
import type { PaymentProduct } from '@portal/contract';
import type { Db } from '../../db/client.ts';
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
  ) {}

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
    return { paid: row?.status === 'paid', expired: row?.status === 'expired', billing: row?.billing ?? undefined };
  }
}
