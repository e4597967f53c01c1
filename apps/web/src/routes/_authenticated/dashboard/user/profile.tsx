import { createFileRoute } from '@tanstack/react-router';
import { currentPlanQueryOptions } from '@/features/account/api/current-plan';
import { AccountProfilePage } from '@/features/account/components/account-profile-page';
import { usePageTitle } from '@/features/errors/errors-page-title';

export const Route = createFileRoute('/_authenticated/dashboard/user/profile')({
  loader: ({ context }) => context.queryClient.ensureQueryData(currentPlanQueryOptions()),
  component: ProfileRoute,
});

function ProfileRoute() {
  usePageTitle('Profile');
  return <AccountProfilePage />;
}
