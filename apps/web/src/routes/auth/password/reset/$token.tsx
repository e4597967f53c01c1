import { createFileRoute, redirect } from '@tanstack/react-router';
import { ResetPasswordPage } from '@/features/auth/components/reset-password-page';
import { pageHead } from '@/lib/page-title';

export const Route = createFileRoute('/auth/password/reset/$token')({
  head: () => pageHead('Reset Password'),
  beforeLoad: ({ context, params }) => {
    if (context.auth.status === 'authenticated') throw redirect({ to: '/dashboard', replace: true });
    if (!params.token.trim()) throw redirect({ to: '/auth/login', search: { target: 'portal' }, replace: true });
  },
  component: ResetPasswordRoute,
});

function ResetPasswordRoute() {
  const { token } = Route.useParams();
  return <ResetPasswordPage token={token} />;
}
