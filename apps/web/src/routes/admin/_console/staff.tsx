import { createFileRoute } from '@tanstack/react-router';
import { AdminStaffScreen } from '@/features/admin/components/admin-staff-screen';
import { pageHead } from '@/lib/page-title';
import { ConsoleScreen } from './-console-screen';

export const Route = createFileRoute('/admin/_console/staff')({
  head: () => pageHead('Staff'),
  component: () => (
    <ConsoleScreen permission="staff.manage">
      <AdminStaffScreen />
    </ConsoleScreen>
  ),
});
