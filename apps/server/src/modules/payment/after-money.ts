import type { PaymentProduct } from '@portal/contract';
import type { Executor } from '../../db/client.ts';
import { AfterCommit } from '../subscriptions/subscriptions.service.ts';
import type { PaymentRow } from './payment.repository.ts';

/** What a money change (a refund, a dispute) leaves for after its commit. */
export interface AfterMoney {
  lifecycle: AfterCommit;
  /** provider subscriptions to cancel at the provider (what a whole refund took back) */
  cancelRefs: string[];
  refundMails: { row: PaymentRow; refund: number; whole: boolean }[];
}

export const afterMoney = (): AfterMoney => ({ lifecycle: new AfterCommit(), cancelRefs: [], refundMails: [] });

/**
 * What Stripe's events need of the money side (BillingService implements it): recording a refund,
 * taking back or holding what a payment granted, and the work after the commit. An interface here
 * keeps the event handling from importing the billing service that builds it.
 */
export interface MoneyChanges {
  recordRefundIn(
    tx: Executor,
    row: PaymentRow,
    amount: number,
    products: PaymentProduct[],
    after: AfterMoney,
  ): Promise<void>;
  revokeWholeIn(tx: Executor, row: PaymentRow, products: PaymentProduct[], after: AfterMoney): Promise<void>;
  holdIn(tx: Executor, row: PaymentRow, hold: boolean, fx: AfterCommit): Promise<void>;
  settle(after: AfterMoney): Promise<void>;
}
