import { CreditCardIcon } from 'lucide-react';
import * as React from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useUserTime } from '@/lib/user-time';
import { useBillingPortal } from '../api/subscriptions-billing-portal';
import { SUBSCRIPTIONS_TEXT } from '../subscriptions-text';

export const PAYMENT_FAILED_TEXT = {
  title: 'Your last payment failed',
  body: 'We could not renew your plan with the card on file. It keeps working while we try the card again over the next few days; add a new card to keep it.',
} as const;

/**
 * The dashboard's past-due banner (issue 31): shown while a renewal of the caller's plan has failed
 * and the provider still retries (user_time's payment_failed_at, from the CHECK_REMAINING_TIME the
 * dashboard reads anyway). Update Payment Info opens the billing portal, where a new card is tried
 * at once.
 */
export function PaymentFailedBanner({ email, userId }: { email: string; userId: string }) {
  const { data } = useUserTime(email, userId);
  const portal = useBillingPortal(email);
  const titleId = React.useId();
  if (!data?.payment_failed_at) return null;
  return (
    <Alert variant="destructive" role="region" aria-labelledby={titleId} data-testid="payment-failed-banner">
      <CreditCardIcon aria-hidden="true" />
      <AlertTitle id={titleId}>{PAYMENT_FAILED_TEXT.title}</AlertTitle>
      <AlertDescription>
        <p>{PAYMENT_FAILED_TEXT.body}</p>
        <Button size="sm" className="mt-1" onClick={portal.open} disabled={portal.busy}>
          {SUBSCRIPTIONS_TEXT.updatePaymentInfo}
        </Button>
      </AlertDescription>
    </Alert>
  );
}
