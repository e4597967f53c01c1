import type { QueryClient } from '@tanstack/react-query';
import { createRouter } from '@tanstack/react-router';
import { GenericErrorScreen } from './features/errors/errors-generic-screen';
import { LoadingPageTitle } from './features/errors/errors-page-title';
import type { AuthSnapshot } from './lib/auth';
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
    defaultPendingComponent: LoadingPageTitle,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
