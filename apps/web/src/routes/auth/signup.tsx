import { createFileRoute, redirect } from '@tanstack/react-router';
import { SignupPage } from '@/features/auth/components/signup-page';
import { usePageTitle } from '@/features/errors/errors-page-title';

export const Route = createFileRoute('/auth/signup')({
  beforeLoad: ({ context }) => {
    if (context.auth.status === 'authenticated') throw redirect({ to: '/dashboard', replace: true });
  },
  component: SignupRoute,
});

function SignupRoute() {
  usePageTitle('Sign up');
  return <SignupPage />;
}
