import { createFileRoute } from '@tanstack/react-router';
import { usageHistoryQueryOptions } from '@/features/usage/api/usage-get-history';
import { UsageScreen } from '@/features/usage/components/usage-screen';
import { usageSearchSchema } from '@/features/usage/usage-search';
import { useAuth } from '@/lib/auth';
import { pageHead } from '@/lib/page-title';

/**
 * Dial-time history (issue 15, docs/decisions/029). Its component, and the chart library with it,
 * is a chunk of its own (autoCodeSplitting): nothing the dashboard loads imports it.
 */
export const Route = createFileRoute('/_authenticated/dashboard/usage')({
  head: () => pageHead('Dial Time Usage'),
  validateSearch: usageSearchSchema,
  loaderDeps: ({ search }) => ({ days: search.days }),
  // Starts the load without waiting: the screen shows its own loading and error states.
  loader: ({ context, deps }) => {
    const user = context.auth.user;
    if (user) void context.queryClient.prefetchQuery(usageHistoryQueryOptions(user.email, deps.days));
  },
  component: UsageRoute,
});

function UsageRoute() {
  const { days } = Route.useSearch();
  const navigate = Route.useNavigate();
  const { user } = useAuth();
  return (
    <UsageScreen
      email={user?.email ?? ''}
      days={days}
      onDaysChange={(d) => void navigate({ search: { days: d }, replace: true })}
    />
  );
}
