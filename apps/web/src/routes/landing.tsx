import { createFileRoute } from '@tanstack/react-router';
import { CookieNotice } from '@/features/cookies/cookie-notice';
import { usePageTitle } from '@/features/errors/errors-page-title';
import { LandingPage } from '@/features/landing/landing-page';
import { useForcedLightTheme } from '@/features/theme/theme-provider';

/** Always light, whatever the user chose elsewhere (spec/000 §2, §4). */
export const Route = createFileRoute('/landing')({
  component: LandingRoute,
});

function LandingRoute() {
  useForcedLightTheme();
  usePageTitle('Welcome');
  return <LandingPage footer={<CookieNotice />} />;
}
