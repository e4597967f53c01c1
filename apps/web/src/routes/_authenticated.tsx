import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';

/** The signed-in area: without a session, sign in first and come back here (spec/000 §2). */
export const Route = createFileRoute('/_authenticated')({
  beforeLoad: ({ context, location }) => {
    if (context.auth.status !== 'authenticated')
      throw redirect({ to: '/auth/login', search: { redirect: location.href, target: 'portal' }, replace: true });
  },
  component: AuthenticatedLayout,
});

function AuthenticatedLayout() {
  return <Outlet />;
}
