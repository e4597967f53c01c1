import { createFileRoute, redirect } from '@tanstack/react-router';
import { LoginPage } from '@/features/auth/components/login-page';
import {
  canonicalLoginSearch,
  loginSearchNeedsRewrite,
  loginSearchSchema,
  safePortalRedirect,
} from '@/features/auth/utils/auth-search';
import { CookieNotice } from '@/features/cookies/cookie-notice';
import { pageHead } from '@/lib/page-title';

export const Route = createFileRoute('/auth/login')({
  head: () => pageHead('Sign in'),
  validateSearch: loginSearchSchema,
  beforeLoad: ({ search, location, context }) => {
    const canonical = canonicalLoginSearch(search);
    // Invalid parameters, and loginMode login-to-hub, lead to the canonical address (spec/000 §2).
    if (loginSearchNeedsRewrite(location.search as Record<string, unknown>, canonical))
      throw redirect({ to: '/auth/login', search: canonical, replace: true });
    if (context.auth.status === 'authenticated' && canonical.target === 'portal')
      throw redirect({ href: safePortalRedirect(canonical.redirect) ?? '/dashboard', replace: true });
  },
  component: LoginRoute,
});

function LoginRoute() {
  const search = Route.useSearch();
  return <LoginPage search={search} cookieNotice={<CookieNotice />} />;
}
