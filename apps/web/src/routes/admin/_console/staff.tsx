import { createFileRoute, redirect } from '@tanstack/react-router';
import { staffQueryOptions } from '@/features/admin/api/admin-staff';
import { AdminStaffScreen } from '@/features/admin/components/admin-staff-screen';
import { pageHead } from '@/lib/page-title';

export const Route = createFileRoute('/admin/_console/staff')({
  head: () => pageHead('Staff'),
  // The screen is not offered to a role the server would refuse (it still decides every call).
  beforeLoad: ({ context }) => {
    if (!context.staff.permissions.includes('staff.manage')) throw redirect({ to: '/admin', replace: true });
  },
  loader: ({ context }) => {
    // Prefetch only: the screen shows its own loading and error states.
    void context.queryClient.prefetchQuery(staffQueryOptions());
  },
  component: AdminStaffScreen,
});
