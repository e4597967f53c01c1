import { type CartItem, formatPrice, robotDisplayName } from '@portal/contract';
import { Link } from '@tanstack/react-router';
import { MinusIcon, PlusIcon, ShoppingCartIcon, Trash2Icon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { cartCurrency, cartItemCount, cartTotal, itemsLabel, lineCurrency, lineTotal, minusRemoves } from '@/lib/cart';
import { dispatchCart, useCart } from '@/lib/cart-store';
import { CHECKOUT_PROCESSING, useCheckout } from '@/lib/checkout';
import { CART_TEXT } from '../cart-text';
import { CartPriceNotice } from './cart-price-notice';
import { CartQuantityInput } from './cart-quantity-input';

function CartRow({ item }: { item: CartItem }) {
  const name = robotDisplayName(item.name);
  const currency = lineCurrency(item);
  const removes = minusRemoves(item.quantity);
  return (
    <li
      className="flex flex-col gap-3 border-b py-4 last:border-b-0 sm:flex-row sm:items-center"
      data-testid="cart-row"
    >
      <div className="min-w-0 flex-1">
        <p className="font-medium">{name}</p>
        {item.description && <p className="text-sm text-muted-foreground">{item.description}</p>}
      </div>
      <div className="flex items-center gap-2">
        {removes ? (
          <Button
            variant="outline"
            size="icon"
            className="size-8 text-destructive hover:text-destructive"
            onClick={() => dispatchCart({ type: 'remove', id: item.id })}
            aria-label={`Remove ${name}`}
          >
            <Trash2Icon aria-hidden />
          </Button>
        ) : (
          <Button
            variant="outline"
            size="icon"
            className="size-8"
            onClick={() => dispatchCart({ type: 'changeQuantity', id: item.id, delta: -1 })}
            aria-label={`Decrease quantity of ${name}`}
          >
            <MinusIcon aria-hidden />
          </Button>
        )}
        <CartQuantityInput
          quantity={item.quantity}
          label={`Quantity of ${name}`}
          onCommit={(quantity) => dispatchCart({ type: 'setQuantity', id: item.id, quantity })}
        />
        <Button
          variant="outline"
          size="icon"
          className="size-8"
          onClick={() => dispatchCart({ type: 'changeQuantity', id: item.id, delta: 1 })}
          aria-label={`Increase quantity of ${name}`}
        >
          <PlusIcon aria-hidden />
        </Button>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 text-sm sm:w-48 sm:text-right">
        <dt className="text-muted-foreground">Unit price</dt>
        <dd className="tabular-nums">{formatPrice(item.selected_price_unit_amount, currency)}</dd>
        <dt className="text-muted-foreground">Total</dt>
        <dd className="font-semibold tabular-nums">{formatPrice(lineTotal(item), currency)}</dd>
      </dl>
    </li>
  );
}

/** The cart page (spec/001 §2): the lines, Clear Cart, and the Order Summary with Checkout. */
export function CartPage({ email }: { email: string }) {
  const items = useCart();
  const checkout = useCheckout(email);
  const count = cartItemCount(items);
  const countText = `${count} ${itemsLabel(count)}`;
  const total = formatPrice(cartTotal(items), cartCurrency(items));

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{CART_TEXT.pageTitle}</h1>
          <p className="text-sm text-muted-foreground" data-testid="cart-count">
            {countText}
          </p>
        </div>
        <Button variant="outline" onClick={() => dispatchCart({ type: 'clear' })} disabled={items.length === 0}>
          <Trash2Icon aria-hidden />
          {CART_TEXT.clearCart}
        </Button>
      </div>

      <CartPriceNotice />

      {items.length === 0 ? (
        <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed p-10 text-center">
          <ShoppingCartIcon aria-hidden className="size-8 text-muted-foreground" />
          <p className="text-muted-foreground">{CART_TEXT.empty}</p>
          <Button asChild variant="outline">
            <Link to="/dashboard/robot/add">{CART_TEXT.browseRobots}</Link>
          </Button>
        </div>
      ) : (
        <div className="grid gap-6 lg:grid-cols-[1fr_20rem] lg:items-start">
          <Card className="py-1">
            <CardContent>
              <ul aria-label="Cart items">
                {items.map((item) => (
                  <CartRow key={item.id} item={item} />
                ))}
              </ul>
            </CardContent>
          </Card>
          <Card role="region" aria-labelledby="order-summary-title">
            <CardHeader>
              <CardTitle id="order-summary-title">{CART_TEXT.orderSummary}</CardTitle>
            </CardHeader>
            <CardContent>
              <dl className="grid grid-cols-2 gap-y-2 text-sm">
                <dt className="text-muted-foreground">{itemsLabel(count)}</dt>
                <dd className="text-right tabular-nums">{count}</dd>
                <dt className="font-semibold">{CART_TEXT.total}</dt>
                <dd className="text-right font-semibold tabular-nums" data-testid="cart-total">
                  {total}
                </dd>
              </dl>
            </CardContent>
            <CardFooter>
              <Button className="w-full" onClick={() => checkout.start(items)} disabled={checkout.disabled}>
                {checkout.processing ? CHECKOUT_PROCESSING : CART_TEXT.checkout}
              </Button>
            </CardFooter>
          </Card>
        </div>
      )}
    </div>
  );
}
