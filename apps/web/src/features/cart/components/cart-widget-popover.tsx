import type { CartItem } from '@portal/contract';
import { formatPrice, robotDisplayName } from '@portal/contract';
import { Link } from '@tanstack/react-router';
import { MinusIcon, PlusIcon, Trash2Icon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { CART_SCROLL_AREA_PX } from '@/config/constants';
import { cartCurrency, cartTotal, lineCurrency, lineTotal } from '@/lib/cart';
import { dispatchCart } from '@/lib/cart-store';
import { CART_TEXT } from '../cart-text';
import { CartWidgetButton } from './cart-widget-button';

/**
 * The cart widget's popover (spec/001 §2 Cart widget), fetched on first use by cart-widget.tsx,
 * which keeps its state. `focusTrigger`: the stand-in button had focus when this arrived.
 */

/**
 * One line's stepper. At quantity 1 the first press of minus only arms it: the button turns into a
 * destructive "Remove item", and a second press removes the line (spec/001 §2 Cart widget).
 */
function CartWidgetLine({ item, onRemove }: { item: CartItem; onRemove: (id: string) => void }) {
  const name = robotDisplayName(item.name);
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
        <span className="min-w-0 font-medium break-words">{name}</span>
        <span className="shrink-0 tabular-nums">{formatPrice(lineTotal(item), currency)}</span>
      </div>
      <div className="flex items-center gap-2">
        {armed ? (
          <Button variant="destructive" size="sm" onClick={minus} aria-label={`${CART_TEXT.removeItem}: ${name}`}>
            <Trash2Icon aria-hidden />
            {CART_TEXT.removeItem}
          </Button>
        ) : (
          <Button
            variant="outline"
            size="icon"
            className="size-8"
            onClick={minus}
            aria-label={`Decrease quantity of ${name}`}
          >
            <MinusIcon aria-hidden />
          </Button>
        )}
        <span className="min-w-8 text-center text-sm tabular-nums">
          <span className="sr-only">Quantity of {name}: </span>
          {item.quantity}
        </span>
        {/* A plan is sold one at a time: nothing to increase. */}
        {!item.plan && (
          <Button
            variant="outline"
            size="icon"
            className="size-8"
            onClick={() => {
              setArmedAt(null);
              dispatchCart({ type: 'changeQuantity', id: item.id, delta: 1 });
            }}
            aria-label={`Increase quantity of ${name}`}
          >
            <PlusIcon aria-hidden />
          </Button>
        )}
      </div>
    </li>
  );
}

export function CartWidgetPopover({
  items,
  open,
  onOpenChange,
  onRemove,
  focusTrigger,
}: {
  items: CartItem[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onRemove: (id: string) => void;
  focusTrigger: boolean;
}) {
  const trigger = React.useRef<HTMLButtonElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when this replaces the stand-in
  React.useEffect(() => {
    if (focusTrigger && !open) trigger.current?.focus();
  }, []);
  return (
    <Popover open={open} onOpenChange={onOpenChange}>
      <PopoverTrigger asChild>
        <CartWidgetButton items={items} ref={trigger} />
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
              <CartWidgetLine key={item.id} item={item} onRemove={onRemove} />
            ))}
          </ul>
        </section>
        <div className="mt-3 flex items-center justify-between border-t pt-3 text-sm font-semibold">
          <span>{CART_TEXT.total}</span>
          <span className="tabular-nums">{formatPrice(cartTotal(items), cartCurrency(items))}</span>
        </div>
        <Button asChild className="mt-3 w-full">
          <Link to="/dashboard/cart" onClick={() => onOpenChange(false)}>
            {CART_TEXT.goToCheckout}
          </Link>
        </Button>
      </PopoverContent>
    </Popover>
  );
}
