import { createFileRoute, redirect } from '@tanstack/react-router';
import { AuthCompletePage } from '@/features/auth/components/auth-complete-page';
import { COMPLETE_PARSE_ERROR, completeSearchSchema, completeSearchStrict } from '@/features/auth/utils/auth-search';
import { pageHead } from '@/lib/page-title';

export const Route = createFileRoute('/auth/complete')({
  head: ({ match }) => pageHead(match.search.success ? 'Authentication Complete' : 'Authentication Failed'),
  validateSearch: completeSearchSchema,
  beforeLoad: ({ location }) => {
    if (!completeSearchStrict.safeParse(location.search).success)
      throw redirect({
        to: '/auth/complete',
        search: { success: false, error_message: COMPLETE_PARSE_ERROR },
        replace: true,
      });
  },
  component: CompleteRoute,
});

function CompleteRoute() {
  const search = Route.useSearch();
  return <AuthCompletePage search={search} />;
}
