import { createFileRoute } from '@tanstack/react-router';
import { currentPlanQueryOptions } from '@/features/account/api/current-plan';
import { AccountProfilePage } from '@/features/account/components/account-profile-page';
import { usePageTitle } from '@/features/errors/errors-page-title';

export const Route = createFileRoute('/_authenticated/dashboard/user/profile')({
  loader: ({ context }) => {
    const user = context.auth.user;
    // Prefetch only: the page shows its own loading and error states for the plan.
    if (user) void context.queryClient.prefetchQuery(currentPlanQueryOptions(user.email, user.user_id));
  },
  component: ProfileRoute,
});

function ProfileRoute() {
  usePageTitle('Profile');
  return <AccountProfilePage />;
}
