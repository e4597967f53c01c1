import { createFileRoute, redirect } from '@tanstack/react-router';

/** spec/000 §2: /auth/register only leads to sign-in (the sign-up page is /auth/signup). */
export const Route = createFileRoute('/auth/register')({
  beforeLoad: () => {
    throw redirect({ to: '/auth/login', search: { target: 'portal' }, replace: true });
  },
});
