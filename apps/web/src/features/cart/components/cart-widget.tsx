import type { CartItem } from '@portal/contract';
import { formatPrice } from '@portal/contract';
import { Link } from '@tanstack/react-router';
import { MinusIcon, PlusIcon, ShoppingCartIcon, Trash2Icon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { CART_SCROLL_AREA_PX, CART_WIDGET_CLOSE_LEAD_MS } from '@/config/constants';
import { cartCurrency, cartItemCount, cartTotal, itemsLabel, lineCurrency, lineTotal } from '@/lib/cart';
import { dispatchCart, useCart } from '@/lib/cart-store';
import { CART_TEXT } from '../cart-text';

/**
 * One line's stepper. At quantity 1 the first press of minus only arms it: the button turns into a
 * destructive "Remove item", and a second press removes the line (spec/001 §2 Cart widget).
 */
function CartWidgetLine({ item, onRemove }: { item: CartItem; onRemove: (id: string) => void }) {
  // Armed at the quantity it was armed at: any change of quantity (plus, or another tab) disarms it.
  const [armedAt, setArmedAt] = React.useState<number | null>(null);
  const armed = armedAt === item.quantity;
  const currency = lineCurrency(item);

  function minus() {
    if (item.quantity > 1) {
      dispatchCart({ type: 'changeQuantity', id: item.id, delta: -1 });
    } else if (!armed) {
      setArmedAt(item.quantity);
    } else {
      onRemove(item.id);
    }
  }

  return (
    <li className="flex flex-col gap-2 border-b py-3 last:border-b-0" data-testid="cart-widget-line">
      <div className="flex items-start justify-between gap-2 text-sm">
        <span className="min-w-0 font-medium break-words">{item.name}</span>
        <span className="shrink-0 tabular-nums">{formatPrice(lineTotal(item), currency)}</span>
      </div>
      <div className="flex items-center gap-2">
        {armed ? (
          <Button variant="destructive" size="sm" onClick={minus} aria-label={`${CART_TEXT.removeItem}: ${item.name}`}>
            <Trash2Icon aria-hidden />
            {CART_TEXT.removeItem}
          </Button>
        ) : (
          <Button
            variant="outline"
            size="icon"
            className="size-8"
            onClick={minus}
            aria-label={`Decrease quantity of ${item.name}`}
          >
            <MinusIcon aria-hidden />
          </Button>
        )}
        <span className="min-w-8 text-center text-sm tabular-nums">
          <span className="sr-only">Quantity of {item.name}: </span>
          {item.quantity}
        </span>
        <Button
          variant="outline"
          size="icon"
          className="size-8"
          onClick={() => {
            setArmedAt(null);
            dispatchCart({ type: 'changeQuantity', id: item.id, delta: 1 });
          }}
          aria-label={`Increase quantity of ${item.name}`}
        >
          <PlusIcon aria-hidden />
        </Button>
      </div>
    </li>
  );
}

/** The cart in the sidebar's footer (spec/001 §2 Cart widget): shown only while the cart has items. */
export function CartWidget() {
  const items = useCart();
  const [open, setOpen] = React.useState(false);
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
  const count = cartItemCount(items);

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button
          variant="outline"
          className="w-full justify-start group-data-[collapsible=icon]:size-8 group-data-[collapsible=icon]:p-0 group-data-[collapsible=icon]:justify-center"
          aria-label={`${CART_TEXT.widgetTitle}, ${count} ${itemsLabel(count).toLowerCase()}`}
        >
          <ShoppingCartIcon aria-hidden />
          <span className="group-data-[collapsible=icon]:hidden">{CART_TEXT.widgetTitle}</span>
          <span className="ml-auto rounded-full bg-primary px-2 text-xs text-primary-foreground tabular-nums group-data-[collapsible=icon]:hidden">
            {count}
          </span>
        </Button>
      </PopoverTrigger>
      <PopoverContent side="right" align="end" className="w-80" aria-labelledby="cart-widget-title">
        <h2 id="cart-widget-title" className="text-base font-semibold">
          {CART_TEXT.widgetTitle}
        </h2>
        <section
          aria-label="Cart items"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard to be scrolled
          tabIndex={0}
          className="-mx-1 overflow-y-auto px-1"
          style={{ maxHeight: CART_SCROLL_AREA_PX }}
          data-testid="cart-widget-scroll"
        >
          <ul>
            {items.map((item) => (
              <CartWidgetLine key={item.id} item={item} onRemove={remove} />
            ))}
          </ul>
        </section>
        <div className="mt-3 flex items-center justify-between border-t pt-3 text-sm font-semibold">
          <span>{CART_TEXT.total}</span>
          <span className="tabular-nums">{formatPrice(cartTotal(items), cartCurrency(items))}</span>
        </div>
        <Button asChild className="mt-3 w-full">
          <Link to="/dashboard/cart" onClick={() => setOpen(false)}>
            {CART_TEXT.goToCheckout}
          </Link>
        </Button>
      </PopoverContent>
    </Popover>
  );
}
