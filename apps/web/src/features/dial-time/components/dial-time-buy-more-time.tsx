import * as React from 'react';
import { onDemand, prefetch } from '@/lib/on-demand';
import { BuyMoreTimeButton } from './dial-time-buy-more-time-button';

/**
 * The dialog (Radix's, with the package choice and the checkout) is fetched when the button is
 * pointed at, focused or pressed (docs/decisions/034). Exported for tests.
 */
export const buyMoreTimeDialog = onDemand(() => import('./dial-time-buy-more-time-dialog'));

/**
 * Buy More Time (spec/001 §2): the button, and the dialog it opens. The tier and the catalogue the
 * dialog shows are fetched with the page (the dashboard's loader), not when it opens.
 */
export function BuyMoreTime({ email }: { email: string }) {
  const [open, setOpen] = React.useState(false);
  const loaded = buyMoreTimeDialog.useModule();
  const focused = React.useRef(false);
  if (loaded)
    return <loaded.BuyMoreTimeDialog email={email} open={open} onOpenChange={setOpen} focusTrigger={focused.current} />;
  // The same button, as the dialog's trigger renders it while closed; a press opens the dialog as
  // soon as its code is here.
  return (
    <BuyMoreTimeButton
      aria-haspopup="dialog"
      aria-expanded={false}
      data-state="closed"
      onPointerEnter={() => prefetch(buyMoreTimeDialog)}
      onFocus={() => {
        focused.current = true;
        prefetch(buyMoreTimeDialog);
      }}
      onBlur={() => {
        focused.current = false;
      }}
      onClick={() => {
        setOpen(true);
        prefetch(buyMoreTimeDialog);
      }}
    />
  );
}
