import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';
import { AppShell } from '@/components/layout/app-shell';
import { GenericErrorPage } from '@/features/errors/errors-generic-screen';

/** The signed-in area: without a session, sign in first and come back here (spec/000 §2). */
export const Route = createFileRoute('/_authenticated')({
  beforeLoad: ({ context, location }) => {
    if (context.auth.status !== 'authenticated')
      throw redirect({ to: '/auth/login', search: { redirect: location.href, target: 'portal' }, replace: true });
  },
  component: AuthenticatedLayout,
  errorComponent: GenericErrorPage,
});

function AuthenticatedLayout() {
  return (
    <AppShell>
      <Outlet />
    </AppShell>
  );
}
