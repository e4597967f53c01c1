import { formatPrice } from '@portal/contract';
import { Link } from '@tanstack/react-router';
import { CircleCheckIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { clearCheckoutSession, dispatchCart, readCart } from '@/lib/cart-store';
import { useConfirmPurchase } from '../api/cart-confirm-purchase';
import { purchasedLines } from '../cart-purchased-lines';
import { CART_TEXT } from '../cart-text';
import { useConfetti } from '../hooks/cart-use-confetti';

/** Payment Successful (spec/001 §2): confetti, what was bought, and a fresh cart. */
export function CartSuccessPage({ email, sessionId }: { email: string; sessionId?: string }) {
  // The cart as it was on arrival: what to list if the server cannot say yet.
  const [arrivedWith] = React.useState(readCart);
  const confirmed = useConfirmPurchase(email, sessionId);

  // A session the provider never took payment for (a visit by hand, an abandoned payment) is not a
  // success: the cart stays, so nothing the customer chose is lost.
  const unpaid = confirmed.data !== undefined && confirmed.data.status !== 'paid';
  const settled = !sessionId || confirmed.isSuccess || confirmed.isError;
  React.useEffect(() => {
    if (!settled || unpaid) return;
    dispatchCart({ type: 'clear' });
    clearCheckoutSession();
  }, [settled, unpaid]);
  useConfetti(settled && !unpaid);

  if (unpaid)
    return (
      <div className="mx-auto flex max-w-xl flex-col gap-6 py-6">
        <Card>
          <CardHeader className="items-center text-center">
            <h1 className="text-2xl font-semibold">{CART_TEXT.notPaidTitle}</h1>
            <CardDescription>{CART_TEXT.notPaidText}</CardDescription>
          </CardHeader>
          <CardFooter className="justify-center">
            <Button asChild>
              <Link to="/dashboard/cart">{CART_TEXT.backToCart}</Link>
            </Button>
          </CardFooter>
        </Card>
      </div>
    );

  const lines = purchasedLines(confirmed.data, arrivedWith);

  return (
    <div className="mx-auto flex max-w-xl flex-col gap-6 py-6">
      <Card>
        <CardHeader className="items-center text-center">
          <CircleCheckIcon aria-hidden className="size-12 text-green-600 dark:text-green-400" />
          <h1 className="text-2xl font-semibold">{CART_TEXT.successTitle}</h1>
          <CardDescription>{CART_TEXT.successThanks}</CardDescription>
        </CardHeader>
        {lines.length > 0 && (
          <CardContent>
            <ul aria-label="Purchased items" className="divide-y">
              {lines.map((line) => (
                <li
                  key={line.key}
                  className="flex items-baseline justify-between gap-4 py-2 text-sm"
                  data-testid="purchased-line"
                >
                  <span className="min-w-0">
                    <span className="font-medium">{line.name}</span>
                    <span className="text-muted-foreground"> × {line.quantity}</span>
                  </span>
                  <span className="shrink-0 tabular-nums">
                    {formatPrice(line.unitAmount, line.currency)} × {line.quantity} ={' '}
                    <span className="font-semibold">{formatPrice(line.unitAmount * line.quantity, line.currency)}</span>
                  </span>
                </li>
              ))}
            </ul>
          </CardContent>
        )}
        <CardFooter className="justify-center">
          <Button asChild>
            <Link to="/dashboard">{CART_TEXT.returnToDashboard}</Link>
          </Button>
        </CardFooter>
      </Card>
    </div>
  );
}
