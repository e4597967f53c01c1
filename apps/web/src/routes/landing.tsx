import { createFileRoute } from '@tanstack/react-router';
import { CookieNotice } from '@/features/cookies/cookie-notice';
import { LandingPage } from '@/features/landing/landing-page';
import { pageHead } from '@/lib/page-title';
import { useForcedLightTheme } from '@/lib/theme/theme-provider';

/** Always light, whatever the user chose elsewhere (spec/000 §2, §4). */
export const Route = createFileRoute('/landing')({
  head: () => pageHead('Welcome'),
  component: LandingRoute,
});

function LandingRoute() {
  useForcedLightTheme();
  return <LandingPage footer={<CookieNotice />} />;
}
