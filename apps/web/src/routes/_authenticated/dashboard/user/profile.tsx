import { createFileRoute } from '@tanstack/react-router';

import { AccountProfilePage } from '@/features/account/components/account-profile-page';
import { pageHead } from '@/lib/page-title';
import { userTimeQueryOptions } from '@/lib/user-time';

export const Route = createFileRoute('/_authenticated/dashboard/user/profile')({
  head: () => pageHead('Profile'),
  loader: ({ context }) => {
    const user = context.auth.user;
    // Prefetch only: the page shows its own loading and error states for the plan.
    if (user) void context.queryClient.prefetchQuery(userTimeQueryOptions(user.email, user.user_id));
  },
  component: ProfileRoute,
});

function ProfileRoute() {
  return <AccountProfilePage />;
}
