import { createFileRoute, useRouter } from '@tanstack/react-router';
import * as React from 'react';
import { AuthLayout } from '@/features/auth/components/auth-layout';
import { authLayoutSearchSchema } from '@/features/auth/utils/auth-search';
import { CookieNotice } from '@/features/cookies/cookie-notice';

export const Route = createFileRoute('/auth')({
  validateSearch: authLayoutSearchSchema,
  component: AuthLayoutRoute,
});

function AuthLayoutRoute() {
  const { target } = Route.useSearch();
  // The sign-in page places its own notice in its content (spec/000 §2 /auth/login).
  // (the history itself, not useRouterState: that hook lives in the signed-in start's chunk, which
  // the sign-in page would then load whole).
  const { history } = useRouter();
  const isSignIn = () => history.location.pathname === '/auth/login';
  const onSignIn = React.useSyncExternalStore(history.subscribe, isSignIn, isSignIn);
  return <AuthLayout target={target} notice={onSignIn ? null : <CookieNotice />} />;
}
