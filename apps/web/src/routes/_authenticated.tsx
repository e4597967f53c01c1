import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';
import { AppShell } from '@/components/layout/app-shell';
import { CartWidget } from '@/features/cart/components/cart-widget';
import { CookieNotice } from '@/features/cookies/cookie-notice';
import { GenericErrorPage } from '@/features/errors/errors-generic-screen';
import { restartOnboarding } from '@/features/onboarding/onboarding-store';
import { OnboardingTour } from '@/features/onboarding/onboarding-tour';

/** The signed-in area: without a session, sign in first and come back here (spec/000 §2). */
export const Route = createFileRoute('/_authenticated')({
  beforeLoad: ({ context, location }) => {
    if (context.auth.status !== 'authenticated')
      throw redirect({ to: '/auth/login', search: { redirect: location.href, target: 'portal' }, replace: true });
  },
  component: AuthenticatedLayout,
  errorComponent: GenericErrorPage,
});

function AuthenticatedLayout() {
  return (
    // The shell is shared layout; the features it shows are plugged in here, where routes compose them.
    <AppShell
      onRestartOnboarding={restartOnboarding}
      overlays={<OnboardingTour />}
      sidebarFooter={<CartWidget />}
      notice={<CookieNotice />}
    >
      <Outlet />
    </AppShell>
  );
}
