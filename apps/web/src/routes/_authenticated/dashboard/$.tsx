import { createFileRoute, redirect } from '@tanstack/react-router';

/** Any unknown page under /dashboard leads back to the dashboard (spec/000 §2). */
export const Route = createFileRoute('/_authenticated/dashboard/$')({
  beforeLoad: () => {
    throw redirect({ to: '/dashboard', replace: true });
  },
});
