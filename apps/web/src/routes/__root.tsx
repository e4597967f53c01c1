import { createRootRouteWithContext, HeadContent, Navigate, Outlet, redirect } from '@tanstack/react-router';
import { RootErrorScreen } from '@/features/errors/errors-root-screen';
import { pageHead } from '@/lib/page-title';
import type { RouterContext } from '../router';

export const Route = createRootRouteWithContext<RouterContext>()({
  // The product name alone, for screens that name themselves no further (spec/000 §2 Page titles).
  head: () => pageHead(),
  component: RootLayout,
  errorComponent: RootErrorScreen,
  // A route that does not exist goes to the dashboard (spec/000 §2); signed out, that leads to sign-in.
  notFoundComponent: () => <Navigate to="/dashboard" replace />,
  beforeLoad: ({ location }) => {
    if (location.pathname !== '/' && location.pathname.endsWith('/'))
      throw redirect({ to: location.pathname.replace(/\/+$/, ''), search: location.search, replace: true });
  },
});

function RootLayout() {
  return (
    <>
      {/* React hoists the <title> into the document head; the deepest route's head() wins. */}
      <HeadContent />
      <Outlet />
    </>
  );
}
