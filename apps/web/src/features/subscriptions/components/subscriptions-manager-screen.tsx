import { deriveTier, TIER_SHORT, tierIndex } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { CreditCardIcon, CrownIcon, RefreshCwIcon, TriangleAlertIcon } from 'lucide-react';
import * as React from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { activeSubscriptionKey, useActiveSubscription } from '@/lib/active-subscription';
import { useProducts } from '@/lib/payment-products';
import { licensesKey, useLicenses } from '@/lib/robot-licenses';
import { robotsBaseKey } from '@/lib/robots';
import { useBillingPortal } from '../api/subscriptions-billing-portal';
import { subscriptionsKey, useSubscriptions } from '../api/subscriptions-list';
import { useRefresh } from '../hooks/subscriptions-use-refresh';
import { planCards } from '../subscriptions-plans';
import { driverRows, licensesById } from '../subscriptions-rows';
import { overrideBadge } from '../subscriptions-table';
import { SUBSCRIPTIONS_TEXT } from '../subscriptions-text';
import { DriversTable } from './subscriptions-drivers-table';
import { PlanCard } from './subscriptions-plan-card';

/** The flexible-slot queries (GET_SLOTS) live under these services' keys, whichever screen owns them. */
const SLOT_SERVICES = new Set(['dial_manager', 'flexible_license']);

function CurrentPlan({ email }: { email: string }) {
  const active = useActiveSubscription(email);
  // spec/001 §4: no data or an error is Lite.
  const tier = deriveTier(active.data ?? active.error ?? undefined);
  const badge = overrideBadge(active.data?.overrideReason);
  return (
    <section
      aria-labelledby="current-plan-title"
      className="flex items-center gap-3 rounded-xl border bg-card p-4 text-card-foreground shadow-sm"
    >
      <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
        <CrownIcon aria-hidden className="size-5" />
      </span>
      <div className="flex flex-col gap-1">
        <h2 id="current-plan-title" className="text-sm text-muted-foreground">
          {SUBSCRIPTIONS_TEXT.currentPlan}
        </h2>
        {active.isPending ? (
          <Skeleton className="h-6 w-24" />
        ) : (
          <p className="flex flex-wrap items-center gap-2 font-semibold" data-testid="current-plan">
            {tier}
            {badge && <Badge variant="outline">{badge}</Badge>}
          </p>
        )}
      </div>
    </section>
  );
}

/**
 * The Subscription Manager (spec/001 §2): the current plan, the plan cards, Update Payment Info,
 * Refresh Subscriptions and the Robot Driver Subscriptions table.
 */
export function SubscriptionManagerScreen({ email }: { email: string }) {
  const queryClient = useQueryClient();
  const products = useProducts();
  const active = useActiveSubscription(email);
  const subscriptions = useSubscriptions(email);
  const licenses = useLicenses(email);
  const portal = useBillingPortal(email);

  const currentIndex = Math.max(0, tierIndex(deriveTier(active.data ?? active.error ?? undefined)));
  const cards = React.useMemo(() => planCards(products.data ?? []), [products.data]);
  const rows = React.useMemo(
    () =>
      driverRows(
        subscriptions.data?.robot_driver_subscriptions ?? [],
        licensesById(licenses.data?.robot_licenses ?? []),
        products.data ?? [],
      ),
    [subscriptions.data, licenses.data, products.data],
  );
  const count =
    (subscriptions.data?.robot_driver_subscriptions.length ?? 0) + (subscriptions.data?.user_subscriptions.length ?? 0);

  const refetch = React.useCallback(() => {
    // spec/001 §4: robots, subscriptions and slots.
    void queryClient.invalidateQueries({ queryKey: licensesKey(email) });
    void queryClient.invalidateQueries({ queryKey: robotsBaseKey(email) });
    void queryClient.invalidateQueries({ queryKey: subscriptionsKey(email) });
    void queryClient.invalidateQueries({ queryKey: activeSubscriptionKey(email) });
    void queryClient.invalidateQueries({ predicate: (q) => SLOT_SERVICES.has(String(q.queryKey[0])) });
  }, [queryClient, email]);
  const refresh = useRefresh(count, refetch);

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-3 md:flex-row md:items-end md:justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{SUBSCRIPTIONS_TEXT.managerTitle}</h1>
          <p className="text-sm text-muted-foreground">Your plan, its billing and your robot driver licenses.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={portal.open} disabled={portal.busy} aria-busy={portal.busy || undefined}>
            <CreditCardIcon aria-hidden />
            {SUBSCRIPTIONS_TEXT.updatePaymentInfo}
          </Button>
          <Button variant="outline" onClick={refresh.run} disabled={refresh.secondsLeft > 0}>
            <RefreshCwIcon aria-hidden />
            {SUBSCRIPTIONS_TEXT.refresh}
            {refresh.secondsLeft > 0 && (
              <span className="tabular-nums text-muted-foreground" data-testid="refresh-countdown">
                ({refresh.secondsLeft}s)
              </span>
            )}
          </Button>
        </div>
      </div>
      <p role="status" className="empty:hidden text-sm font-medium">
        {refresh.message}
      </p>

      <CurrentPlan email={email} />

      <section aria-labelledby="plans-title" className="flex flex-col gap-3">
        <h2 id="plans-title" className="text-lg font-semibold">
          {SUBSCRIPTIONS_TEXT.plans}
        </h2>
        {products.isPending ? (
          <div className="grid gap-4 md:grid-cols-3" role="status" aria-label="Loading plans">
            {TIER_SHORT.map((t) => (
              <Skeleton key={t} className="h-96 rounded-xl" />
            ))}
          </div>
        ) : products.isError ? (
          <Alert variant="destructive">
            <TriangleAlertIcon aria-hidden />
            <AlertTitle>{SUBSCRIPTIONS_TEXT.loadErrorTitle}</AlertTitle>
            <AlertDescription>{products.error.message}</AlertDescription>
          </Alert>
        ) : (
          <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {cards.map((card) => (
              <PlanCard key={card.product.id} card={card} currentIndex={currentIndex} email={email} />
            ))}
          </div>
        )}
      </section>

      <section aria-labelledby="drivers-title" className="flex flex-col gap-3">
        <h2 id="drivers-title" className="text-lg font-semibold">
          {SUBSCRIPTIONS_TEXT.driversTitle}
        </h2>
        {subscriptions.isError ? (
          <Alert variant="destructive">
            <TriangleAlertIcon aria-hidden />
            <AlertTitle>{SUBSCRIPTIONS_TEXT.loadErrorTitle}</AlertTitle>
            <AlertDescription>{subscriptions.error.message || SUBSCRIPTIONS_TEXT.loadFailed}</AlertDescription>
          </Alert>
        ) : subscriptions.isPending ? (
          <div role="status">
            <Skeleton className="h-40 rounded-lg" />
            <span className="sr-only">{SUBSCRIPTIONS_TEXT.loading}</span>
          </div>
        ) : (
          <DriversTable rows={rows} />
        )}
      </section>
    </div>
  );
}
