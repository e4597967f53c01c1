import type { PublicUser } from '@portal/contract';
import type { QueryClient } from '@tanstack/react-query';
import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { GenericErrorScreen } from './features/errors/errors-generic-screen';
import type { AuthStatus } from './lib/auth';
import { LOADING_PAGE_TITLE } from './lib/page-title';
import { routeTree } from './routeTree.gen';

/**
 * What the routes know of the session: its status and who it is (the loaders' calls name the user
 * by email and id). Only that: lib/warm-start.ts routes a stored session before its check answers.
 */
export interface RouterContext {
  queryClient: QueryClient;
  auth: { status: AuthStatus; user: Pick<PublicUser, 'email' | 'user_id'> | null };
}

/** Outside a browser (the build's prerendering, app.tsx) the address and the origin are given. */
export interface AwayFromBrowser {
  history: RouterHistory;
  origin: string;
}

export function createAppRouter(queryClient: QueryClient, away?: AwayFromBrowser) {
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
    // Away from a browser there is no window to scroll.
    ...(away ? { ...away, scrollRestoration: false } : {}),
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
