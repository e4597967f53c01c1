import { createFileRoute } from '@tanstack/react-router';
import { AdminSupportInbox } from '@/features/admin/components/admin-support-inbox';
import { pageHead } from '@/lib/page-title';
import { ConsoleScreen } from '../-console-screen';

export const Route = createFileRoute('/admin/_console/support/')({
  head: () => pageHead('Support inbox'),
  component: InboxRoute,
});

function InboxRoute() {
  const { staff } = Route.useRouteContext();
  return (
    <ConsoleScreen permission="support.answer">
      <AdminSupportInbox me={staff} />
    </ConsoleScreen>
  );
}
