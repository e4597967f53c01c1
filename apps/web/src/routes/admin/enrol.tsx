import { createFileRoute } from '@tanstack/react-router';
import { AdminEnrolPage } from '@/features/admin/components/admin-enrol-page';
import { pageHead } from '@/lib/page-title';
import { defined, searchParser, text } from '@/lib/search-params';

export const Route = createFileRoute('/admin/enrol')({
  head: () => pageHead('Join the back office'),
  // The server checks the token; the address only keeps a string of a plausible length.
  validateSearch: searchParser((raw) => defined({ token: text(raw.token, { min: 1, max: 128, trim: true }) })),
  component: EnrolRoute,
});

function EnrolRoute() {
  const { token } = Route.useSearch();
  return <AdminEnrolPage token={token} />;
}
