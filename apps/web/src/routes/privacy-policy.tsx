import { createFileRoute } from '@tanstack/react-router';
import { CookieNotice } from '@/features/cookies/cookie-notice';
import { PublicPrivacyPolicyPage } from '@/features/privacy/privacy-policy-page';
import { pageHead } from '@/lib/page-title';

export const Route = createFileRoute('/privacy-policy')({
  head: () => pageHead('Privacy Policy'),
  component: PrivacyPolicyRoute,
});

function PrivacyPolicyRoute() {
  return <PublicPrivacyPolicyPage notice={<CookieNotice />} />;
}
