import type { PaymentProduct } from '@portal/contract';
import { CheckIcon, Loader2Icon } from 'lucide-react';
import * as React from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { ERROR_TOAST_MS, PLAN_UPGRADE_BUSY_MS } from '@/config/constants';
import { planReplacedBy, toCartItem } from '@/lib/cart';
import { dispatchCart, readCart } from '@/lib/cart-store';
import { useCheckout } from '@/lib/checkout';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';
import {
  type Billing,
  PLAN_TEXT,
  type PlanCardModel,
  planButtonState,
  planPriceView,
  planReplacedNotice,
} from '../subscriptions-plans';

function BillingToggle({
  plan,
  billing,
  onChange,
}: {
  plan: string;
  billing: Billing;
  onChange: (b: Billing) => void;
}) {
  const options: [Billing, string][] = [
    ['monthly', PLAN_TEXT.monthly],
    ['annually', PLAN_TEXT.annually],
  ];
  return (
    <fieldset
      aria-label={`Billing for ${plan}`}
      className="m-0 inline-flex w-fit min-w-0 rounded-md border bg-muted p-0.5"
    >
      {options.map(([value, label]) => (
        <button
          key={value}
          type="button"
          aria-pressed={billing === value}
          onClick={() => onChange(value)}
          className={cn(
            'rounded px-3 py-1 text-xs font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
            billing === value
              ? 'bg-background text-foreground shadow-sm'
              : 'text-muted-foreground hover:text-foreground',
          )}
        >
          {label}
        </button>
      ))}
    </fieldset>
  );
}

export interface PlanCardProps {
  card: PlanCardModel<PaymentProduct>;
  /** the current tier's index (Lite 0, Standard 1, Pro 2) */
  currentIndex: number;
  email: string;
}

/**
 * One plan (spec/001 §2 Plan cards): its price for the chosen billing, what it includes, and the
 * button its tier gets against the current one. An upgrade empties the cart, puts the plan in it
 * and goes to checkout, showing a 1-second busy state.
 */
export function PlanCard({ card, currentIndex, email }: PlanCardProps) {
  const name = card.product.name;
  const [billing, setBilling] = React.useState<Billing>(card.billing.initial);
  const view = planPriceView(card.prices, billing);
  const button = planButtonState(card.tierIndex, currentIndex);
  const checkout = useCheckout(email);
  const [busy, setBusy] = React.useState(false);
  const timer = React.useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  React.useEffect(() => () => clearTimeout(timer.current), []);

  const upgrade = () => {
    const line = toCartItem({ ...card.product, prices: card.prices, selected_price_id: view.price?.id });
    if (!line.ok) {
      toast.error(line.error, { duration: ERROR_TOAST_MS });
      return;
    }
    setBusy(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setBusy(false), PLAN_UPGRADE_BUSY_MS);
    // A cart holds one plan: one it held before is replaced, and the customer is told so.
    const replaced = planReplacedBy(readCart(), line.item);
    if (replaced) toast.success(planReplacedNotice(replaced.name, name));
    dispatchCart({ type: 'clear' });
    dispatchCart({ type: 'add', item: line.item });
    checkout.start([line.item]);
  };

  const working = busy || checkout.processing;
  const titleId = React.useId();
  return (
    <Card
      role="region"
      aria-labelledby={titleId}
      data-testid="plan-card"
      className={cn('relative', card.popular && 'border-primary shadow-md')}
    >
      <CardHeader className="gap-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle id={titleId} className="text-lg">
            {name}
          </CardTitle>
          {card.popular && <Badge>{PLAN_TEXT.mostPopular}</Badge>}
        </div>
        {card.product.description && <CardDescription>{card.product.description}</CardDescription>}
        {card.billing.hasToggle && <BillingToggle plan={name} billing={billing} onChange={setBilling} />}
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-4">
        <div data-testid="plan-price">
          <p>
            <span className="text-3xl font-bold tabular-nums">{view.amount}</span>
            <span className="text-sm text-muted-foreground">{view.period}</span>
          </p>
          {view.monthlyEquivalent && (
            <p className="text-sm text-muted-foreground">
              {view.monthlyEquivalent} {PLAN_TEXT.perUserPerMonth}
            </p>
          )}
        </div>
        <div className="flex flex-col gap-2">
          <p className="text-sm font-medium">{card.intro}</p>
          <ul className="flex flex-col gap-1.5 text-sm" aria-label={`${name} features`}>
            {card.features.map((feature) => (
              <li key={feature} className="flex items-start gap-2">
                <CheckIcon aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
                {feature}
              </li>
            ))}
          </ul>
        </div>
      </CardContent>
      <CardFooter className="mt-auto">
        <Button
          className="w-full"
          variant={button.kind === 'upgrade' ? 'default' : 'outline'}
          disabled={button.disabled || working || checkout.disabled}
          aria-busy={working || undefined}
          data-state={working ? 'busy' : 'idle'}
          onClick={upgrade}
        >
          {working && <Loader2Icon aria-hidden className="motion-safe:animate-spin" />}
          {button.label}
        </Button>
      </CardFooter>
    </Card>
  );
}
