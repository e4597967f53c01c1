import type { CartItem } from '@portal/contract';
import { ShoppingCartIcon } from 'lucide-react';
import type * as React from 'react';
import { Button } from '@/components/ui/button';
import { cartItemCount, itemsLabel } from '@/lib/cart';
import { CART_TEXT } from '../cart-text';

/** The widget's button: the cart and how many items it holds. */
export function CartWidgetButton({ items, ...props }: React.ComponentProps<typeof Button> & { items: CartItem[] }) {
  const count = cartItemCount(items);
  return (
    <Button
      variant="outline"
      className="w-full justify-start group-data-[collapsible=icon]:size-8 group-data-[collapsible=icon]:p-0 group-data-[collapsible=icon]:justify-center"
      aria-label={`${CART_TEXT.widgetTitle}, ${count} ${itemsLabel(count).toLowerCase()}`}
      {...props}
    >
      <ShoppingCartIcon aria-hidden />
      <span className="group-data-[collapsible=icon]:hidden">{CART_TEXT.widgetTitle}</span>
      <span className="ml-auto rounded-full bg-primary px-2 text-xs text-primary-foreground tabular-nums group-data-[collapsible=icon]:hidden">
        {count}
      </span>
    </Button>
  );
}
