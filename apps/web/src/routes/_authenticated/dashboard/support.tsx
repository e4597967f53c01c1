import { createFileRoute } from '@tanstack/react-router';
import { usePageTitle } from '@/features/errors/errors-page-title';
import { SupportPage } from '@/features/support/components/support-page';
import { supportSearchSchema } from '@/features/support/utils/support-search';

export const Route = createFileRoute('/_authenticated/dashboard/support')({
  validateSearch: supportSearchSchema,
  component: SupportRoute,
});

function SupportRoute() {
  const search = Route.useSearch();
  usePageTitle('Support');
  return <SupportPage search={search} />;
}
