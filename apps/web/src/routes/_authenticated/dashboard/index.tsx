import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { DialTimePanel } from '@/features/dial-time/components/dial-time-panel';
import { ShowOnboardingButton } from '@/features/onboarding/onboarding-show-button';
import { RobotManagerScreen } from '@/features/robots/components/robots-manager-screen';
import { prefetchRobotManager } from '@/features/robots/robots-prefetch';
import { PastDueBanner } from '@/features/subscriptions/components/past-due-banner';
import { useAuth } from '@/lib/auth';
import { pageHead } from '@/lib/page-title';
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
  // Every call the screen shows an answer of starts here, at once (e2e dashboard-waterfall.spec.ts).
  // Buy More Time's tier and catalogue are not among them: they are asked for when its button is
  // pointed at, focused or pressed, with the dialog's code (decision 047).
  loader: ({ context }) => {
    const user = context.auth.user;
    if (!user) return;
    // GetRobots and the first cards' pictures start as soon as GetLicenses answers (decision 044).
    prefetchRobotManager(context.queryClient, user.email);
    void context.queryClient.prefetchQuery(userTimeQueryOptions(user.email, user.user_id));
  },
  component: RobotManagerRoute,
});

function RobotManagerRoute() {
  const { filter } = Route.useSearch();
  const { user } = useAuth();
  const navigate = Route.useNavigate();
  const email = user?.email ?? '';
  return (
    <div className="flex flex-col gap-6">
      <PastDueBanner email={email} userId={user?.user_id ?? ''} />
      <RobotManagerScreen
        email={email}
        filter={filter}
        onFilterChange={(next) => void navigate({ search: { filter: next }, replace: true })}
        helpButton={<ShowOnboardingButton />}
        dialTimePanel={<DialTimePanel email={email} userId={user?.user_id ?? ''} />}
      />
    </div>
  );
}
