import type { QueryClient } from '@tanstack/react-query';
import { createRouter } from '@tanstack/react-router';
import { GenericErrorScreen } from './features/errors/errors-generic-screen';
import type { AuthSnapshot } from './lib/auth';
import { LOADING_PAGE_TITLE } from './lib/page-title';
import { routeTree } from './routeTree.gen';

export interface RouterContext {
  queryClient: QueryClient;
  auth: AuthSnapshot;
}

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient, auth: { status: 'loading', user: null } },
    defaultPreload: 'intent',
    // React Query owns caching; the router always asks it.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    // Errors below the signed-in layout show inside the shell, keeping the navigation.
    defaultErrorComponent: GenericErrorScreen,
    // While a route's data is on its way (after the router's pending delay) the tab says so; the
    // newest <title> React mounts comes first in the head, so this one wins until it unmounts.
    defaultPendingComponent: () => <title>{LOADING_PAGE_TITLE}</title>,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
