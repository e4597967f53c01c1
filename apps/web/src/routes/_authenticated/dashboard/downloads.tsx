import { createFileRoute } from '@tanstack/react-router';
import { env } from '@/config/env';
import { assetsQueryOptions } from '@/features/downloads/api/downloads-get-assets';
import { DownloadsScreen } from '@/features/downloads/components/downloads-screen';
import { usePageTitle } from '@/features/errors/errors-page-title';

export const Route = createFileRoute('/_authenticated/dashboard/downloads')({
  // Starts the fetch without waiting: the screen shows its own loading, empty and error messages.
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(assetsQueryOptions());
  },
  component: DownloadsRoute,
});

/** The quickstart guide on the documentation site. */
const quickstartUrl = new URL('quickstart', `${env.docsUrl.replace(/\/+$/, '')}/`).href;

function DownloadsRoute() {
  usePageTitle('Downloads');
  return <DownloadsScreen quickstartUrl={quickstartUrl} />;
}
