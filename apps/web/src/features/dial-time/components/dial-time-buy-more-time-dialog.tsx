import { Loader2Icon, TriangleAlertIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { knownTier, useActiveSubscription } from '@/lib/active-subscription';
import { cartItemCount } from '@/lib/cart';
import { dispatchCart, useCart } from '@/lib/cart-store';
import { CHECKOUT_PROCESSING, useCheckout } from '@/lib/checkout';
import { useProducts } from '@/lib/payment-products';
import {
  BUY_TIME_TEXT,
  cartReplacedText,
  type TimePackage,
  timePackageCartItem,
  timePackages,
} from '../dial-time-packages';
import { BuyMoreTimeButton } from './dial-time-buy-more-time-button';

function PackageChoice({
  packages,
  value,
  onChange,
}: {
  packages: TimePackage[];
  value: string;
  onChange: (id: string) => void;
}) {
  if (packages.length === 0) return <p className="text-sm text-muted-foreground">{BUY_TIME_TEXT.none}</p>;
  return (
    <RadioGroup value={value} onValueChange={onChange} aria-label="Dial time packages" className="gap-2">
      {packages.map((pkg) => {
        const id = `time-package-${pkg.product.id}`;
        return (
          <Label
            key={pkg.product.id}
            htmlFor={id}
            className="flex cursor-pointer items-center gap-3 rounded-lg border p-3 font-normal has-[[data-state=checked]]:border-primary has-[[data-state=checked]]:bg-primary/5"
            data-testid="time-package"
          >
            <RadioGroupItem value={pkg.product.id} id={id} />
            <span className="flex-1 font-medium">{pkg.product.name}</span>
            <span className="font-semibold tabular-nums">{pkg.priceText}</span>
          </Label>
        );
      })}
    </RadioGroup>
  );
}

/**
 * Buy More Time's dialog (spec/001 §2): choose a package, then Go to Checkout replaces the cart
 * with that one item, creates the purchase session and sends the browser to it. The price is the
 * tier's (§9); the tier must be known, and Pro cannot buy (§6). Fetched on first use by
 * dial-time-buy-more-time.tsx, which keeps whether it is open; `focusTrigger`: the stand-in button
 * had focus when this arrived.
 */
export function BuyMoreTimeDialog({
  email,
  open,
  onOpenChange,
  focusTrigger,
}: {
  email: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  focusTrigger: boolean;
}) {
  const trigger = React.useRef<HTMLButtonElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when this replaces the stand-in
  React.useEffect(() => {
    if (focusTrigger && !open) trigger.current?.focus();
  }, []);
  const [chosen, setChosen] = React.useState('');
  const products = useProducts();
  const tier = knownTier(useActiveSubscription(email));
  const checkout = useCheckout(email);
  const cartCount = cartItemCount(useCart());

  const packages = React.useMemo(
    () => (tier.status === 'known' && products.data ? timePackages(products.data, tier.tier) : []),
    [tier, products.data],
  );
  const selected = packages.find((p) => p.product.id === chosen) ?? packages[0];
  const canBuy = tier.status === 'known' && tier.tier !== 'Pro' && selected !== undefined;

  const goToCheckout = () => {
    if (!canBuy || !selected) return;
    const item = timePackageCartItem(selected);
    dispatchCart({ type: 'replace', items: [item] });
    checkout.start([item]);
  };

  let body: React.ReactNode;
  if (products.isPending || tier.status === 'pending') {
    body = (
      <p role="status" className="text-sm text-muted-foreground">
        {BUY_TIME_TEXT.loading}
      </p>
    );
  } else if (tier.status === 'error') {
    body = (
      <p role="alert" className="flex items-center gap-2 text-sm font-medium text-destructive">
        <TriangleAlertIcon aria-hidden className="size-4 shrink-0" />
        {BUY_TIME_TEXT.tierUnknown}
      </p>
    );
  } else if (products.isError) {
    body = (
      <p role="alert" className="flex items-center gap-2 text-sm font-medium text-destructive">
        <TriangleAlertIcon aria-hidden className="size-4 shrink-0" />
        {products.error.message}
      </p>
    );
  } else if (tier.tier === 'Pro') {
    body = <p className="text-sm text-muted-foreground">{BUY_TIME_TEXT.proCannotBuy}</p>;
  } else {
    body = (
      <>
        <PackageChoice packages={packages} value={selected?.product.id ?? ''} onChange={setChosen} />
        {/* Go to Checkout replaces the cart (spec/001 §2); the customer is told before, not after. */}
        {cartCount > 0 && (
          <p className="mt-3 flex items-center gap-2 text-sm text-muted-foreground" data-testid="cart-replaced">
            <TriangleAlertIcon aria-hidden className="size-4 shrink-0" />
            {cartReplacedText(cartCount)}
          </p>
        )}
      </>
    );
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <BuyMoreTimeButton ref={trigger} />
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{BUY_TIME_TEXT.title}</DialogTitle>
          <DialogDescription>{BUY_TIME_TEXT.description}</DialogDescription>
        </DialogHeader>
        <div data-testid="time-purchase-widget">{body}</div>
        <DialogFooter>
          <Button
            onClick={goToCheckout}
            disabled={!canBuy || checkout.disabled}
            aria-busy={checkout.processing || undefined}
          >
            {checkout.processing && <Loader2Icon aria-hidden className="motion-safe:animate-spin" />}
            {checkout.processing ? CHECKOUT_PROCESSING : BUY_TIME_TEXT.goToCheckout}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
