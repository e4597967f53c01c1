import { createFileRoute } from '@tanstack/react-router';
import { VerifyEmailPage } from '@/features/auth/components/verify-email-page';
import { pageHead } from '@/lib/page-title';

/** The link in the verification email: /auth/verify/{token}. */
export const Route = createFileRoute('/auth/verify/$token')({
  head: () => pageHead('Verify Email'),
  component: VerifyEmailRoute,
});

function VerifyEmailRoute() {
  const { token } = Route.useParams();
  return <VerifyEmailPage token={token} />;
}
