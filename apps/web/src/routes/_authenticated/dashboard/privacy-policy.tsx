import { createFileRoute } from '@tanstack/react-router';
import { usePageTitle } from '@/features/errors/errors-page-title';
import { PrivacyPolicyPage } from '@/features/privacy/privacy-policy-page';

/** The same policy inside the shell, so signed-in users keep their navigation. */
export const Route = createFileRoute('/_authenticated/dashboard/privacy-policy')({
  component: DashboardPrivacyPolicyRoute,
});

function DashboardPrivacyPolicyRoute() {
  usePageTitle('Privacy Policy');
  return <PrivacyPolicyPage />;
}
