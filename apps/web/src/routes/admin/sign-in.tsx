import { createFileRoute, useLocation } from '@tanstack/react-router';
import { consoleRedirect } from '@/features/admin/admin-search';
import { staffPasskeySignIn } from '@/features/admin/api/admin-passkey-sign-in';
import { AdminSignInPage } from '@/features/admin/components/admin-sign-in-page';
import { pageHead } from '@/lib/page-title';

export const Route = createFileRoute('/admin/sign-in')({
  head: () => pageHead('Staff sign-in'),
  component: SignInRoute,
});

function SignInRoute() {
  // Read here, not by a validateSearch in every page's entry.
  const redirect = useLocation({
    select: (location) => consoleRedirect((location.search as { redirect?: unknown }).redirect),
  });
  return <AdminSignInPage signInWithPasskey={staffPasskeySignIn} redirect={redirect} />;
}
