import { type CartItem, payment } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import * as React from 'react';
import { CHECKOUT_BUTTON_DISABLED_MS, ERROR_TOAST_MS } from '@/config/constants';
import { toast } from '@/lib/toast';
import { apiClient } from './api-client';
import { checkoutLines } from './cart';
import { storeCheckoutSession } from './cart-store';
import { redirectBrowser } from './redirect';

/*
 * HandlePurchase and the redirect that follows it (spec/001 §2 Cart page, §4 Checkout). Shared:
 * the cart page, Buy More Time and the plan cards all start a checkout the same way.
 */

export const CHECKOUT_FAILED = 'Failed to create checkout session. Please try again.';
export const CHECKOUT_PROCESSING = 'Processing...';

/** Where the payment provider sends the browser back (spec/001 §7 HandlePurchase). */
export function checkoutReturnUrls(origin: string): { success_url: string; cancel_url: string } {
  return { success_url: `${origin}/dashboard/cart/success`, cancel_url: `${origin}/dashboard/cart/cancel` };
}

/** spec/001 §8's thrown message for a purchase that gave no session to go to. */
export const PAYMENT_SESSION_FAILED = 'Failed to create payment intent session';

class NoSessionUrl extends Error {
  constructor() {
    super(PAYMENT_SESSION_FAILED);
  }
}

/** Creates a checkout session for the cart's lines and answers where to send the browser. */
export async function createCheckoutSession(
  email: string,
  items: readonly CartItem[],
  origin: string,
): Promise<string> {
  const res = await apiClient.call(payment, 'HandlePurchase', {
    email,
    session: { products: checkoutLines(items), ...checkoutReturnUrls(origin) },
  });
  // The spec's toast covers an answer without an address as well as a failed call (§8).
  if (!res.session?.session_url) throw new NoSessionUrl();
  return res.session.session_url;
}

export interface Checkout {
  start: (items: readonly CartItem[]) => void;
  /** the session is being created, or the browser is on its way to it */
  processing: boolean;
  /** the button stays disabled for 1 s after a click (spec/001 §9), and while processing */
  disabled: boolean;
}

/** The Checkout button's behaviour: create the session, store its address, redirect; toast a failure. */
export function useCheckout(email: string): Checkout {
  const [coolingDown, setCoolingDown] = React.useState(false);
  const [redirecting, setRedirecting] = React.useState(false);
  const timer = React.useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  React.useEffect(() => () => clearTimeout(timer.current), []);

  const mutation = useMutation({
    mutationFn: (items: readonly CartItem[]) => createCheckoutSession(email, items, window.location.origin),
    onSuccess: (url) => {
      storeCheckoutSession(url);
      setRedirecting(true);
      redirectBrowser(url);
    },
    onError: () => {
      // One toast however often it fails: a second failure replaces the first rather than stacking.
      toast.error(CHECKOUT_FAILED, { id: CHECKOUT_FAILED, duration: ERROR_TOAST_MS });
    },
  });

  const start = React.useCallback(
    (items: readonly CartItem[]) => {
      if (items.length === 0) return;
      setCoolingDown(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCoolingDown(false), CHECKOUT_BUTTON_DISABLED_MS);
      mutation.mutate(items);
    },
    [mutation.mutate],
  );

  const processing = mutation.isPending || redirecting;
  return { start, processing, disabled: processing || coolingDown };
}
