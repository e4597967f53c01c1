import * as React from 'react';
import { CART_WIDGET_CLOSE_LEAD_MS } from '@/config/constants';
import { dispatchCart, useCart } from '@/lib/cart-store';
import { onDemand, prefetch } from '@/lib/on-demand';
import { CartWidgetButton } from './cart-widget-button';

/**
 * The popover (Radix, with its positioning library) is fetched when the button is pointed at,
 * focused or pressed. Exported for tests.
 */
export const cartWidgetPopover = onDemand(() => import('./cart-widget-popover'));

/** The cart in the sidebar's footer (spec/001 §2 Cart widget): shown only while the cart has items. */
export function CartWidget() {
  const items = useCart();
  const [open, setOpen] = React.useState(false);
  const loaded = cartWidgetPopover.useModule();
  const focused = React.useRef(false);
  const removeTimer = React.useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  React.useEffect(() => () => clearTimeout(removeTimer.current), []);

  const remove = React.useCallback(
    (id: string) => {
      if (items.length > 1) {
        dispatchCart({ type: 'remove', id });
        return;
      }
      // The last line: close first, so the popover does not vanish from under the pointer with its trigger.
      setOpen(false);
      clearTimeout(removeTimer.current);
      removeTimer.current = setTimeout(() => dispatchCart({ type: 'remove', id }), CART_WIDGET_CLOSE_LEAD_MS);
    },
    [items.length],
  );

  if (items.length === 0) return null;
  if (loaded)
    return (
      <loaded.CartWidgetPopover
        items={items}
        open={open}
        onOpenChange={setOpen}
        onRemove={remove}
        focusTrigger={focused.current}
      />
    );
  // The same button, as the popover's trigger renders it while closed; a press opens the popover
  // as soon as its code is here.
  const openPopover = () => {
    setOpen(true);
    prefetch(cartWidgetPopover);
  };
  return (
    <CartWidgetButton
      items={items}
      aria-haspopup="dialog"
      aria-expanded={false}
      data-state="closed"
      onPointerEnter={() => prefetch(cartWidgetPopover)}
      onFocus={() => {
        focused.current = true;
        prefetch(cartWidgetPopover);
      }}
      onBlur={() => {
        focused.current = false;
      }}
      // Opened from the press itself: if the code arrives between the press and its release, the
      // popover's own trigger replaces this button under the pointer and the click is never
      // delivered, so waiting for the click lost the press (e2e cart-rules.spec.ts).
      onPointerDown={(event) => {
        if (event.button === 0) openPopover();
      }}
      onClick={openPopover}
    />
  );
}
