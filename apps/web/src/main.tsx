import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, useCallback } from 'react';
import { createRoot } from 'react-dom/client';
import { AuthProvider, useAuth } from './lib/auth';
import { startErrorReporting } from './lib/error-reporting';
import { LOADING_PAGE_TITLE } from './lib/page-title';
import { createQueryClient } from './lib/query-client';
import { ThemeProvider, useTheme } from './lib/theme/theme-provider';
import { Toaster } from './lib/toast';
import { createAppRouter } from './router';
import './styles.css';

startErrorReporting();
const queryClient = createQueryClient();
const router = createAppRouter(queryClient);

function LoadingScreen() {
  return (
    <div className="flex min-h-dvh items-center justify-center" role="status" aria-live="polite">
      <title>{LOADING_PAGE_TITLE}</title>
      <div className="flex flex-col items-center gap-3 text-muted-foreground">
        <span className="size-8 animate-spin rounded-full border-2 border-current border-t-transparent" aria-hidden />
        <span>Loading...</span>
      </div>
    </div>
  );
}

function App() {
  const auth = useAuth();
  // A loading screen shows until the start-up session check settles (spec/000 §4).
  if (auth.status === 'loading') return <LoadingScreen />;
  return <RouterProvider router={router} context={{ queryClient, auth: { status: auth.status, user: auth.user } }} />;
}

function ThemedToaster() {
  const { resolvedTheme } = useTheme();
  return <Toaster theme={resolvedTheme} richColors closeButton position="top-right" />;
}

function Root() {
  const onSignedOut = useCallback(() => {
    void router.navigate({ to: '/auth/login', search: { target: 'portal' } });
  }, []);
  const onChange = useCallback(() => {
    void router.invalidate();
  }, []);
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <AuthProvider onSignedOut={onSignedOut} onChange={onChange}>
          <App />
          <ThemedToaster />
        </AuthProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}

const rootElement = document.getElementById('app');
if (!rootElement) throw new Error('no #app element');
createRoot(rootElement).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
