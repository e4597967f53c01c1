import { createFileRoute } from '@tanstack/react-router';
import { VerifyEmailPage } from '@/features/auth/components/verify-email-page';
import { usePageTitle } from '@/features/errors/errors-page-title';

/** The link in the verification email: /auth/verify/{token}. */
export const Route = createFileRoute('/auth/verify/$token')({
  component: VerifyEmailRoute,
});

function VerifyEmailRoute() {
  const { token } = Route.useParams();
  usePageTitle('Verify Email');
  return <VerifyEmailPage token={token} />;
}
