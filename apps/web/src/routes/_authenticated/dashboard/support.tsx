import { createFileRoute } from '@tanstack/react-router';
import { SupportPage } from '@/features/support/components/support-page';
import { supportSearchSchema } from '@/features/support/utils/support-search';
import { pageHead } from '@/lib/page-title';

export const Route = createFileRoute('/_authenticated/dashboard/support')({
  head: () => pageHead('Support'),
  validateSearch: supportSearchSchema,
  component: SupportRoute,
});

function SupportRoute() {
  const search = Route.useSearch();
  return <SupportPage search={search} />;
}
