import { formatPriceLabel } from '@portal/contract';
import { CheckIcon, ShoppingCartIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { ADD_TO_CART_CHECK_MS, ERROR_TOAST_MS } from '@/config/constants';
import { toCartItem } from '@/lib/cart';
import { dispatchCart } from '@/lib/cart-store';
import { toast } from '@/lib/toast';
import { addedToCartMessage } from '../add-robot-catalogue';
import type { AddRobotItem } from '../add-robot-products';

/** The card's price button: adds one licence to the cart, then shows a check mark for 1000 ms (spec/001 §2). */
export function AddRobotPriceButton({ item }: { item: AddRobotItem }) {
  const [added, setAdded] = React.useState(false);
  const timer = React.useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  React.useEffect(() => () => clearTimeout(timer.current), []);

  const label = item.price ? formatPriceLabel(item.price) : 'Add to cart';
  const name = item.product.name;

  function add() {
    const result = toCartItem(item.product);
    if (!result.ok) {
      toast.error(result.error, { duration: ERROR_TOAST_MS });
      return;
    }
    dispatchCart({ type: 'add', item: result.item });
    toast.success(addedToCartMessage(name));
    setAdded(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setAdded(false), ADD_TO_CART_CHECK_MS);
  }

  return (
    <Button
      className="w-full"
      onClick={add}
      aria-label={item.price ? `Add ${name} to cart, ${label}` : `Add ${name} to cart`}
      data-state={added ? 'added' : 'idle'}
    >
      {added ? (
        <CheckIcon aria-hidden data-testid="added-check" />
      ) : (
        <>
          <ShoppingCartIcon aria-hidden />
          <span>{label}</span>
        </>
      )}
    </Button>
  );
}
