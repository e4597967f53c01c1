import { createFileRoute } from '@tanstack/react-router';
import { subscriptionsQueryOptions } from '@/features/subscriptions/api/subscriptions-list';
import { SubscriptionManagerScreen } from '@/features/subscriptions/components/subscriptions-manager-screen';
import { activeSubscriptionQueryOptions } from '@/lib/active-subscription';
import { useAuth } from '@/lib/auth';
import { pageHead } from '@/lib/page-title';
import { productsQueryOptions } from '@/lib/payment-products';
import { licensesQueryOptions } from '@/lib/robot-licenses';

export const Route = createFileRoute('/_authenticated/dashboard/subscriptions/manage')({
  head: () => pageHead('Subscription Manager'),
  // Starts the fetches without waiting: the screen shows its own loading and error states.
  loader: ({ context }) => {
    const email = context.auth.user?.email;
    void context.queryClient.prefetchQuery(productsQueryOptions());
    if (!email) return;
    void context.queryClient.prefetchQuery(activeSubscriptionQueryOptions(email));
    void context.queryClient.prefetchQuery(subscriptionsQueryOptions(email));
    void context.queryClient.prefetchQuery(licensesQueryOptions(email));
  },
  component: SubscriptionManagerRoute,
});

function SubscriptionManagerRoute() {
  const { user } = useAuth();
  return <SubscriptionManagerScreen email={user?.email ?? ''} />;
}
