import { createFileRoute } from '@tanstack/react-router';
import { usePageTitle } from '@/features/errors/errors-page-title';
import { PublicPrivacyPolicyPage } from '@/features/privacy/privacy-policy-page';

export const Route = createFileRoute('/privacy-policy')({
  component: PrivacyPolicyRoute,
});

function PrivacyPolicyRoute() {
  usePageTitle('Privacy Policy');
  return <PublicPrivacyPolicyPage />;
}
