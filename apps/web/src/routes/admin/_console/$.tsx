import { createFileRoute, Navigate } from '@tanstack/react-router';
import { AdminCustomerSearch } from '@/features/admin/components/admin-customer-search';
import { AdminCustomerView } from '@/features/admin/components/admin-customer-view';
import { AdminSupportInbox } from '@/features/admin/components/admin-support-inbox';
import { AdminSupportTicket } from '@/features/admin/components/admin-support-ticket';
import { pageHead } from '@/lib/page-title';
import { ConsoleScreen } from './-console-screen';

/**
 * The inbox (/admin/support), a request (/admin/support/SR-…), the customers (/admin/customers)
 * and one customer (/admin/customers/<user id>) under one route: each route's entry is in the page
 * entry every customer loads, which had room for one more (bench/bundle-size.ts). Any other console
 * address leads back to the overview.
 */
export const Route = createFileRoute('/admin/_console/$')({
  head: ({ params }) => pageHead(params._splat?.startsWith('c') ? 'Customers' : 'Support'),
  component: ConsoleSplat,
});

function ConsoleSplat() {
  const { staff } = Route.useRouteContext();
  const [screen = '', id = '', extra] = Route.useParams({ select: (params) => params._splat ?? '' }).split('/');
  if (extra === undefined && screen === 'support')
    return (
      <ConsoleScreen permission="support.answer">
        {id ? <AdminSupportTicket key={id} ticketId={id} me={staff} /> : <AdminSupportInbox me={staff} />}
      </ConsoleScreen>
    );
  if (extra === undefined && screen === 'customers')
    return (
      <ConsoleScreen permission="customers.read">
        {id ? <AdminCustomerView key={id} userId={id} me={staff} /> : <AdminCustomerSearch />}
      </ConsoleScreen>
    );
  return <Navigate to="/admin" replace />;
}
