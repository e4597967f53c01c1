import { createFileRoute, redirect } from '@tanstack/react-router';

/** /auth alone has no screen of its own: it is the sign-in page. */
export const Route = createFileRoute('/auth/')({
  beforeLoad: ({ search }) => {
    throw redirect({ to: '/auth/login', search: { target: search.target }, replace: true });
  },
});
