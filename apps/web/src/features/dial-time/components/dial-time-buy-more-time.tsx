import { useQueryClient } from '@tanstack/react-query';
import * as React from 'react';
import { activeSubscriptionQueryOptions } from '@/lib/active-subscription';
import { onDemand, prefetch } from '@/lib/on-demand';
import { productsQueryOptions } from '@/lib/payment-products';
import { BuyMoreTimeButton } from './dial-time-buy-more-time-button';

/**
 * The dialog (Radix's, with the package choice and the checkout) is fetched when the button is
 * pointed at, focused or pressed (docs/decisions/034). Exported for tests.
 */
export const buyMoreTimeDialog = onDemand(() => import('./dial-time-buy-more-time-dialog'));

/**
 * Buy More Time (spec/001 §2): the button, and the dialog it opens. What the dialog shows, its code,
 * the tier and the catalogue, is fetched when the button is pointed at, focused or pressed, all at
 * once (docs/decisions/047): not with the page, where its four requests (two CSRF GETs, two POSTs)
 * took connections from the Robot Manager's own calls. The dialog says "Loading products..." until
 * they answer.
 */
export function BuyMoreTime({ email }: { email: string }) {
  const [open, setOpen] = React.useState(false);
  const loaded = buyMoreTimeDialog.useModule();
  const focused = React.useRef(false);
  const queryClient = useQueryClient();
  if (loaded)
    return <loaded.BuyMoreTimeDialog email={email} open={open} onOpenChange={setOpen} focusTrigger={focused.current} />;
  const getReady = () => {
    prefetch(buyMoreTimeDialog);
    // Answers already in the cache and still fresh are not asked for again.
    void queryClient.prefetchQuery(activeSubscriptionQueryOptions(email));
    void queryClient.prefetchQuery(productsQueryOptions());
  };
  // The same button, as the dialog's trigger renders it while closed; a press opens the dialog as
  // soon as its code is here.
  return (
    <BuyMoreTimeButton
      aria-haspopup="dialog"
      aria-expanded={false}
      data-state="closed"
      onPointerEnter={getReady}
      onFocus={() => {
        focused.current = true;
        getReady();
      }}
      onBlur={() => {
        focused.current = false;
      }}
      onClick={() => {
        setOpen(true);
        getReady();
      }}
    />
  );
}
