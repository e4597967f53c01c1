import { createFileRoute } from '@tanstack/react-router';
import { AdminOverview } from '@/features/admin/components/admin-overview';
import { pageHead } from '@/lib/page-title';

export const Route = createFileRoute('/admin/_console/')({
  head: () => pageHead('Back office'),
  component: OverviewRoute,
});

function OverviewRoute() {
  const { staff } = Route.useRouteContext();
  return <AdminOverview me={staff} />;
}
