import { createFileRoute } from '@tanstack/react-router';
import { subscriptionQueryOptions } from '@/features/subscriptions/api/subscriptions-get-subscription';
import { ManageSubscriptionScreen } from '@/features/subscriptions/components/subscriptions-manage-screen';
import { useAuth } from '@/lib/auth';
import { pageHead } from '@/lib/page-title';
import { licensesQueryOptions } from '@/lib/robot-licenses';

export const Route = createFileRoute('/_authenticated/dashboard/subscriptions/manager/stripe/$subscriptionID')({
  head: () => pageHead('Manage Subscription'),
  // Starts the fetches without waiting: the screen shows its own loading, error and not-found states.
  loader: ({ context, params }) => {
    const email = context.auth.user?.email;
    if (!email) return;
    void context.queryClient.prefetchQuery(subscriptionQueryOptions(email, params.subscriptionID));
    void context.queryClient.prefetchQuery(licensesQueryOptions(email));
  },
  component: ManageSubscriptionRoute,
});

function ManageSubscriptionRoute() {
  const { subscriptionID } = Route.useParams();
  const { user } = useAuth();
  return <ManageSubscriptionScreen key={subscriptionID} email={user?.email ?? ''} subscriptionId={subscriptionID} />;
}
