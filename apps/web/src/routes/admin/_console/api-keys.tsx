import { createFileRoute, redirect } from '@tanstack/react-router';
import { apiKeysQueryOptions } from '@/features/admin/api/admin-api-keys';
import { AdminApiKeysScreen } from '@/features/admin/components/admin-api-keys-screen';
import { pageHead } from '@/lib/page-title';

export const Route = createFileRoute('/admin/_console/api-keys')({
  head: () => pageHead('API keys'),
  // The screen is not offered to a role the server would refuse (it still decides every call).
  beforeLoad: ({ context }) => {
    if (!context.staff.permissions.includes('api_keys.manage')) throw redirect({ to: '/admin', replace: true });
  },
  loader: ({ context }) => {
    // Prefetch only: the screen shows its own loading and error states.
    void context.queryClient.prefetchQuery(apiKeysQueryOptions());
  },
  component: AdminApiKeysScreen,
});
