import { createFileRoute, useLocation } from '@tanstack/react-router';
import { enrolmentToken } from '@/features/admin/admin-search';
import { AdminEnrolPage } from '@/features/admin/components/admin-enrol-page';
import { pageHead } from '@/lib/page-title';

export const Route = createFileRoute('/admin/enrol')({
  head: () => pageHead('Join the back office'),
  component: EnrolRoute,
});

function EnrolRoute() {
  // Read here, not by a validateSearch in every page's entry; the server checks the token.
  const token = useLocation({ select: (location) => enrolmentToken((location.search as { token?: unknown }).token) });
  return <AdminEnrolPage token={token} />;
}
