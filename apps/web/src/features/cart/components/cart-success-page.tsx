import { formatPrice } from '@portal/contract';
import { Link } from '@tanstack/react-router';
import { CircleCheckIcon, Loader2Icon, TriangleAlertIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { clearCheckoutSession, dispatchCart } from '@/lib/cart-store';
import { formatLongDateGB } from '@/lib/dates';
import { useConfirmPurchase } from '../api/cart-confirm-purchase';
import { purchasedLines } from '../cart-purchased-lines';
import { CART_TEXT } from '../cart-text';
import { useConfetti } from '../hooks/cart-use-confetti';
import { CartPairingSteps } from './cart-pairing-code';

/**
 * Payment Successful (spec/001 §2): confetti, what was bought, and a fresh cart. Only the server's
 * answer is shown, after a loading state: never the stored cart first (it can differ from what was
 * charged, and the page changed under the reader's eyes).
 */
export function CartSuccessPage({ email, sessionId }: { email: string; sessionId?: string }) {
  const canvas = React.useRef<HTMLCanvasElement>(null);
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
  useConfetti(canvas, settled && !unpaid && !confirmed.isError);

  if (!settled)
    return (
      <div className="mx-auto flex max-w-xl flex-col gap-6 py-6">
        <Card>
          <CardContent>
            <p role="status" className="flex items-center justify-center gap-2 text-sm text-muted-foreground">
              <Loader2Icon aria-hidden className="size-4 motion-safe:animate-spin" />
              {CART_TEXT.confirming}
            </p>
          </CardContent>
        </Card>
      </div>
    );

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

  const lines = confirmed.data ? purchasedLines(confirmed.data) : [];

  return (
    <div className="relative isolate mx-auto flex max-w-xl flex-col gap-6 py-6">
      {/* Behind the card (z-index below it) and never in the way of a click. */}
      <canvas
        ref={canvas}
        aria-hidden
        data-testid="confetti"
        className="pointer-events-none fixed inset-0 -z-10 size-full"
      />
      <Card>
        <CardHeader className="items-center text-center">
          <CircleCheckIcon aria-hidden className="size-12 text-green-600 dark:text-green-400" />
          <h1 className="text-2xl font-semibold">{CART_TEXT.successTitle}</h1>
          <CardDescription>{CART_TEXT.successThanks}</CardDescription>
        </CardHeader>
        {confirmed.isError && (
          <CardContent>
            <p role="alert" className="flex items-center justify-center gap-2 text-sm font-medium text-destructive">
              <TriangleAlertIcon aria-hidden className="size-4 shrink-0" />
              {CART_TEXT.receiptUnavailable}
            </p>
          </CardContent>
        )}
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
                    {line.interval && <span className="text-muted-foreground">/{line.interval}</span>}
                  </span>
                </li>
              ))}
            </ul>
            {confirmed.data && (
              <dl
                className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 border-t pt-3 text-sm"
                data-testid="receipt"
              >
                <dt className="font-semibold">{CART_TEXT.total}</dt>
                <dd className="text-right font-semibold tabular-nums">
                  {formatPrice(confirmed.data.amount, confirmed.data.currency)}
                </dd>
                {confirmed.data.reference && (
                  <>
                    <dt className="text-muted-foreground">{CART_TEXT.orderReference}</dt>
                    <dd className="text-right font-mono">{confirmed.data.reference}</dd>
                  </>
                )}
                {confirmed.data.paid_at !== undefined && (
                  <>
                    <dt className="text-muted-foreground">{CART_TEXT.date}</dt>
                    <dd className="text-right">{formatLongDateGB(confirmed.data.paid_at)}</dd>
                  </>
                )}
              </dl>
            )}
          </CardContent>
        )}
        {confirmed.data && confirmed.data.pairings.length > 0 && (
          <CardContent>
            <CartPairingSteps pairings={confirmed.data.pairings} />
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
