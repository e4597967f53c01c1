import { createFileRoute } from '@tanstack/react-router';
import { AdminCustomerView } from '@/features/admin/components/admin-customer-view';
import { pageHead } from '@/lib/page-title';
import { ConsoleScreen } from '../-console-screen';

export const Route = createFileRoute('/admin/_console/customers/$userId')({
  head: () => pageHead('Customer'),
  component: CustomerRoute,
});

function CustomerRoute() {
  const { staff } = Route.useRouteContext();
  const { userId } = Route.useParams();
  return (
    <ConsoleScreen permission="customers.read">
      <AdminCustomerView key={userId} userId={userId} me={staff} />
    </ConsoleScreen>
  );
}
