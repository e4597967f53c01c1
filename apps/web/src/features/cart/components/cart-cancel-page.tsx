import { Link } from '@tanstack/react-router';
import { CircleXIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { clearCheckoutSession } from '@/lib/cart-store';
import { CART_TEXT } from '../cart-text';

/** Payment Cancelled (spec/001 §2): nothing was charged; the cart is kept for another try. */
export function CartCancelPage() {
  React.useEffect(() => {
    clearCheckoutSession();
  }, []);

  return (
    <div className="mx-auto flex max-w-xl flex-col gap-6 py-6">
      <Card>
        <CardHeader className="items-center text-center">
          <CircleXIcon aria-hidden className="size-12 text-muted-foreground" />
          <h1 className="text-2xl font-semibold">{CART_TEXT.cancelTitle}</h1>
          <CardDescription>{CART_TEXT.cancelText}</CardDescription>
        </CardHeader>
        <CardFooter className="justify-center">
          <Button asChild variant="outline">
            <Link to="/dashboard/cart">{CART_TEXT.backToCart}</Link>
          </Button>
        </CardFooter>
      </Card>
    </div>
  );
}
