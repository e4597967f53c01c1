import { createFileRoute, useRouterState } from '@tanstack/react-router';
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
  const onSignIn = useRouterState({ select: (s) => s.location.pathname === '/auth/login' });
  return <AuthLayout target={target} notice={onSignIn ? null : <CookieNotice />} />;
}
