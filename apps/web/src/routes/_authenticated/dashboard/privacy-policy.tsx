import { createFileRoute } from '@tanstack/react-router';
import { PrivacyPolicyPage } from '@/features/privacy/privacy-policy-page';
import { pageHead } from '@/lib/page-title';

/** The same policy inside the shell, so signed-in users keep their navigation. */
export const Route = createFileRoute('/_authenticated/dashboard/privacy-policy')({
  head: () => pageHead('Privacy Policy'),
  component: DashboardPrivacyPolicyRoute,
});

function DashboardPrivacyPolicyRoute() {
  return <PrivacyPolicyPage />;
}
