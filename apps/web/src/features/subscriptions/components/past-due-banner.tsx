import * as React from 'react';
import { onDemand } from '@/lib/on-demand';
import { useUserTime } from '@/lib/user-time';

/** The banner's code (its alert, the billing portal's call), fetched only for a plan whose payment failed. */
export const paymentFailedBanner = onDemand(() => import('./payment-failed-banner'));

/**
 * The dashboard's past-due banner (issue 31), as the dashboard carries it: it reads user_time's
 * payment_failed_at from the CHECK_REMAINING_TIME the dashboard asks for anyway, and only when a
 * renewal has failed fetches the banner's code (the dashboard's bundle stays within its budget).
 */
export function PastDueBanner({ email, userId }: { email: string; userId: string }) {
  const { data } = useUserTime(email, userId);
  const failed = Boolean(data?.payment_failed_at);
  const module = paymentFailedBanner.useModule();
  React.useEffect(() => {
    if (failed) paymentFailedBanner.preload().catch(() => undefined);
  }, [failed]);
  if (!failed || !module) return null;
  return <module.PaymentFailedBanner email={email} userId={userId} />;
}
