import { createFileRoute, redirect } from '@tanstack/react-router';

/** A reset link without its token cannot reset anything: back to sign-in (spec/000 §2). */
export const Route = createFileRoute('/auth/password/reset/')({
  beforeLoad: () => {
    throw redirect({ to: '/auth/login', search: { target: 'portal' }, replace: true });
  },
});
