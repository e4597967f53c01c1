import { InfoIcon, XIcon } from 'lucide-react';
import * as React from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { cartChangeText, repriceCart } from '@/lib/cart-reprice';
import { dismissCartChanges, repriceStoredCart, useCartChanges } from '@/lib/cart-store';
import { useProducts } from '@/lib/payment-products';

export const CART_PRICES_CHANGED = 'Prices in your cart have changed';

/**
 * Re-prices the cart against GetProducts once it has answered (a line saved on a price no longer
 * sold, docs/decisions/063), and says what changed until the customer dismisses it.
 */
export function CartPriceNotice() {
  const products = useProducts();
  React.useEffect(() => {
    const catalogue = products.data;
    if (catalogue) repriceStoredCart((items) => repriceCart(items, catalogue));
  }, [products.data]);
  const changes = useCartChanges();
  if (!changes.length) return null;
  return (
    <Alert data-testid="cart-price-notice" className="pr-12">
      <InfoIcon aria-hidden />
      <AlertTitle>{CART_PRICES_CHANGED}</AlertTitle>
      <AlertDescription>
        <ul>
          {changes.map((c) => (
            <li key={`${c.id}-${c.kind}`}>{cartChangeText(c)}</li>
          ))}
        </ul>
      </AlertDescription>
      <Button
        variant="ghost"
        size="icon"
        className="absolute top-2 right-2 size-8"
        onClick={dismissCartChanges}
        aria-label="Dismiss"
      >
        <XIcon aria-hidden />
      </Button>
    </Alert>
  );
}
