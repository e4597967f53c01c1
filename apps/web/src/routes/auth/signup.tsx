import { createFileRoute, redirect } from '@tanstack/react-router';
import { SignupPage } from '@/features/auth/components/signup-page';
import { pageHead } from '@/lib/page-title';

export const Route = createFileRoute('/auth/signup')({
  head: () => pageHead('Sign up'),
  beforeLoad: ({ context }) => {
    if (context.auth.status === 'authenticated') throw redirect({ to: '/dashboard', replace: true });
  },
  component: SignupRoute,
});

function SignupRoute() {
  return <SignupPage />;
}
