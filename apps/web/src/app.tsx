import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, useCallback, useEffect } from 'react';
import { LoadingIndicator } from './components/loading-indicator';
import { TOAST_MOBILE_BOTTOM_OFFSET_PX } from './config/constants';
import { AuthProvider, type AuthSnapshot, useAuth } from './lib/auth';
import { LOADING_PAGE_TITLE } from './lib/page-title';
import { createQueryClient } from './lib/query-client';
import { ThemeProvider, useTheme } from './lib/theme/theme-provider';
import { Toaster } from './lib/toast';
import { type AppRouter, type AwayFromBrowser, createAppRouter } from './router';

/**
 * The whole app as one element, for the browser (main.tsx) and for the build's prerendering of the
 * public pages (prerender.tsx, docs/decisions/038): both render this same tree, so the browser can
 * hydrate what the build wrote.
 */
export interface App {
  queryClient: QueryClient;
  router: AppRouter;
  element: React.ReactElement;
}

function LoadingScreen() {
  return (
    <>
      <title>{LOADING_PAGE_TITLE}</title>
      <LoadingIndicator />
    </>
  );
}

function ThemedToaster() {
  const { resolvedTheme } = useTheme();
  // Bottom right, away from the top bar's user menu and the pages' filters (issue 32 item 6).
  return (
    <Toaster
      theme={resolvedTheme}
      richColors
      closeButton
      position="bottom-right"
      mobileOffset={{ bottom: TOAST_MOBILE_BOTTOM_OFFSET_PX }}
    />
  );
}

/**
 * In the browser by default; the prerendering passes the page's address and an origin.
 * `onMounted` runs once the first render is on the page (after hydrating, the page is the app's).
 */
export function createApp(away?: AwayFromBrowser, onMounted?: () => void): App {
  const queryClient = createQueryClient();
  const router = createAppRouter(queryClient, away);

  function Routes() {
    const auth = useAuth();
    // A loading screen shows until the start-up session check settles (spec/000 §4).
    if (auth.status === 'loading') return <LoadingScreen />;
    return <RouterProvider router={router} context={{ queryClient, auth: { status: auth.status, user: auth.user } }} />;
  }

  function Root() {
    const onSignedOut = useCallback(() => {
      void router.navigate({ to: '/auth/login', search: { target: 'portal' } });
    }, []);
    const onChange = useCallback((previous: AuthSnapshot) => {
      // While the start-up check was out, Routes showed the loading screen and no router: the
      // router loads now, for the first time, with this session. Invalidating it as well ran every
      // guard and loader of the page twice, in the task that first shows it.
      if (previous.status === 'loading') return;
      void router.invalidate();
    }, []);
    useEffect(() => onMounted?.(), []);
    return (
      <QueryClientProvider client={queryClient}>
        <ThemeProvider>
          <AuthProvider onSignedOut={onSignedOut} onChange={onChange}>
            <Routes />
            <ThemedToaster />
          </AuthProvider>
        </ThemeProvider>
      </QueryClientProvider>
    );
  }

  return {
    queryClient,
    router,
    element: (
      <StrictMode>
        <Root />
      </StrictMode>
    ),
  };
}
