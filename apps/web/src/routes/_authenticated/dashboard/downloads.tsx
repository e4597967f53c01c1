import { createFileRoute } from '@tanstack/react-router';
import { env } from '@/config/env';
import { assetsQueryOptions } from '@/features/downloads/api/downloads-get-assets';
import { DownloadsScreen } from '@/features/downloads/components/downloads-screen';
import { pageHead } from '@/lib/page-title';

export const Route = createFileRoute('/_authenticated/dashboard/downloads')({
  head: () => pageHead('Downloads'),
  // Starts the fetch without waiting: the screen shows its own loading, empty and error messages.
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(assetsQueryOptions());
  },
  component: DownloadsRoute,
});

/** The quickstart guide on the documentation site. */
const quickstartUrl = new URL('quickstart', `${env.docsUrl.replace(/\/+$/, '')}/`).href;

function DownloadsRoute() {
  return <DownloadsScreen quickstartUrl={quickstartUrl} />;
}
