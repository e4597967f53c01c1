import { Link } from '@tanstack/react-router';
import { LockKeyholeIcon } from 'lucide-react';
import type * as React from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { useProducts } from '@/lib/payment-products';
import { useOwnLicenses } from '../api/flexible-licenses-get-licenses';
import { useSlots } from '../api/flexible-licenses-get-slots';
import { FLEX_TEXT } from '../flexible-licenses-text';
import { FlexBoard } from './flexible-licenses-board';

export interface FlexibleLicensesScreenProps {
  email: string;
  userId: string;
}

/**
 * /dashboard/subscriptions/flexible_licenses (spec/001 §2 Flexible License Management): three
 * loads (the catalogue, the slots, the licenses), then the upsell at 0 slots or the board.
 */
export function FlexibleLicensesScreen({ email, userId }: FlexibleLicensesScreenProps) {
  const products = useProducts();
  const slots = useSlots(email, userId);
  const licenses = useOwnLicenses(email);

  let body: React.ReactNode;
  if (products.isError || slots.isError || licenses.isError)
    body = (
      <p role="alert" className="rounded-lg border border-destructive/50 p-4 text-sm text-destructive">
        {FLEX_TEXT.loadError}
      </p>
    );
  else if (!products.data || !slots.data || !licenses.data)
    body = (
      <p role="status" className="text-sm text-muted-foreground">
        {FLEX_TEXT.loading}
      </p>
    );
  else if (slots.data.user_slot_amount === 0) body = <UpsellCard />;
  else
    body = (
      <FlexBoard email={email} userId={userId} slots={slots.data} products={products.data} licenses={licenses.data} />
    );

  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{FLEX_TEXT.title}</h1>
      {body}
    </div>
  );
}

/** At 0 slots: what flexible licenses are and where to get slots. */
function UpsellCard() {
  return (
    <Card className="max-w-xl" data-testid="flex-upsell">
      <CardHeader>
        <LockKeyholeIcon aria-hidden className="size-8 text-primary" />
        <CardTitle>{FLEX_TEXT.upsellTitle}</CardTitle>
        <CardDescription>{FLEX_TEXT.upsellBody}</CardDescription>
      </CardHeader>
      <CardFooter>
        <Button asChild>
          {/* Through the catch-all until the Subscription Manager route exists; the address is the same. */}
          <Link to="/dashboard/$" params={{ _splat: 'subscriptions/manage' }}>
            {FLEX_TEXT.upsellAction}
          </Link>
        </Button>
      </CardFooter>
    </Card>
  );
}
