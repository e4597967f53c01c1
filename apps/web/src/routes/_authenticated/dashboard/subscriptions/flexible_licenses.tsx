import { createFileRoute } from '@tanstack/react-router';
import { ownLicensesQueryOptions } from '@/features/flexible-licenses/api/flexible-licenses-get-licenses';
import { slotsQueryOptions } from '@/features/flexible-licenses/api/flexible-licenses-get-slots';
import { FlexibleLicensesScreen } from '@/features/flexible-licenses/components/flexible-licenses-screen';
import { useAuth } from '@/lib/auth';
import { pageHead } from '@/lib/page-title';
import { productsQueryOptions } from '@/lib/payment-products';

export const Route = createFileRoute('/_authenticated/dashboard/subscriptions/flexible_licenses')({
  head: () => pageHead('Flexible License Management'),
  // Starts the three loads without waiting: the screen shows its own loading and error texts.
  loader: ({ context }) => {
    const user = context.auth.user;
    void context.queryClient.prefetchQuery(productsQueryOptions());
    if (!user) return;
    void context.queryClient.prefetchQuery(slotsQueryOptions(user.email, user.user_id));
    void context.queryClient.prefetchQuery(ownLicensesQueryOptions(user.email));
  },
  component: FlexibleLicensesRoute,
});

function FlexibleLicensesRoute() {
  const { user } = useAuth();
  return <FlexibleLicensesScreen email={user?.email ?? ''} userId={user?.user_id ?? ''} />;
}
