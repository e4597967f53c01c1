import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';
import { AdminFrame } from '@/features/admin/components/admin-frame';
import { pageHead } from '@/lib/page-title';

/**
 * The back office (issue 34, docs/decisions/073). Signed out, sign in with a passkey first; signed
 * in, the server says who this is as staff (admin.Me). Anyone it does not know as staff (a
 * customer, or a staff account in a password session) gets what any missing route gives: the
 * dashboard. This part of the file is in every page's entry, so it holds the guard only: the call
 * is a chunk of its own (-staff-check.ts) and the frame and screens load after the guard passed.
 */
export const Route = createFileRoute('/admin/_console')({
  head: () => pageHead('Back office'),
  beforeLoad: async ({ context, location }) => {
    const user = context.auth.status === 'authenticated' ? context.auth.user : null;
    if (!user) throw redirect({ href: `/admin/sign-in?redirect=${encodeURIComponent(location.href)}`, replace: true });
    const { checkStaff } = await import('./-staff-check');
    const staff = await checkStaff(context.queryClient, user.user_id);
    if (!staff) throw redirect({ to: '/dashboard', replace: true });
    return { staff };
  },
  component: ConsoleLayout,
});

function ConsoleLayout() {
  const { staff } = Route.useRouteContext();
  return (
    <AdminFrame me={staff}>
      <Outlet />
    </AdminFrame>
  );
}
