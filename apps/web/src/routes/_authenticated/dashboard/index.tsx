import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { DialTimePanel } from '@/features/dial-time/components/dial-time-panel';
import { ShowOnboardingButton } from '@/features/onboarding/onboarding-show-button';
import { RobotManagerScreen } from '@/features/robots/components/robots-manager-screen';
import { prefetchRobotManager } from '@/features/robots/robots-prefetch';
import { activeSubscriptionQueryOptions } from '@/lib/active-subscription';
import { useAuth } from '@/lib/auth';
import { pageHead } from '@/lib/page-title';
import { productsQueryOptions } from '@/lib/payment-products';
import { oneOf, searchParser } from '@/lib/search-params';
import { userTimeQueryOptions } from '@/lib/user-time';

const searchSchema = searchParser((raw): { filter: 'all' | 'paired' | 'unpaired' } => ({
  filter: oneOf(['all', 'paired', 'unpaired'], raw.filter) ?? 'all',
}));

export const Route = createFileRoute('/_authenticated/dashboard/')({
  head: () => pageHead('Robot Manager'),
  validateSearch: searchSchema,
  search: { middlewares: [stripSearchParams({ filter: 'all' })] },
  // Starts the fetches without waiting: the screen owns the spec's 700 ms loader and its error state.
  // Every call the screen makes that needs no other answer starts here, at once: the dial time
  // panel's Buy More Time asks for the tier and the catalogue (e2e dashboard-waterfall.spec.ts).
  loader: ({ context }) => {
    const user = context.auth.user;
    if (!user) return;
    // GetRobots and the first cards' pictures start as soon as GetLicenses answers (decision 044).
    prefetchRobotManager(context.queryClient, user.email);
    void context.queryClient.prefetchQuery(userTimeQueryOptions(user.email, user.user_id));
    void context.queryClient.prefetchQuery(activeSubscriptionQueryOptions(user.email));
    void context.queryClient.prefetchQuery(productsQueryOptions());
  },
  component: RobotManagerRoute,
});

function RobotManagerRoute() {
  const { filter } = Route.useSearch();
  const { user } = useAuth();
  const navigate = Route.useNavigate();
  const email = user?.email ?? '';
  return (
    <RobotManagerScreen
      email={email}
      filter={filter}
      onFilterChange={(next) => void navigate({ search: { filter: next }, replace: true })}
      helpButton={<ShowOnboardingButton />}
      dialTimePanel={<DialTimePanel email={email} userId={user?.user_id ?? ''} />}
    />
  );
}
