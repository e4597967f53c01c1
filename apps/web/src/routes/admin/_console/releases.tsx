import { createFileRoute } from '@tanstack/react-router';
import { AdminReleasesScreen } from '@/features/admin/components/admin-releases-screen';
import { pageHead } from '@/lib/page-title';
import { ConsoleScreen } from './-console-screen';

export const Route = createFileRoute('/admin/_console/releases')({
  head: () => pageHead('Releases'),
  component: ReleasesRoute,
});

function ReleasesRoute() {
  const { staff } = Route.useRouteContext();
  return (
    <ConsoleScreen permission="customers.read">
      <AdminReleasesScreen canManage={staff.permissions.includes('releases.manage')} />
    </ConsoleScreen>
  );
}
