import { createRootRouteWithContext, Navigate, Outlet, redirect } from '@tanstack/react-router';
import { RootErrorScreen } from '@/features/errors/errors-root-screen';
import type { RouterContext } from '../router';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  errorComponent: RootErrorScreen,
  // A route that does not exist goes to the dashboard (spec/000 §2); signed out, that leads to sign-in.
  notFoundComponent: () => <Navigate to="/dashboard" replace />,
  beforeLoad: ({ location }) => {
    if (location.pathname !== '/' && location.pathname.endsWith('/'))
      throw redirect({ to: location.pathname.replace(/\/+$/, ''), search: location.search, replace: true });
  },
});
