import { createFileRoute } from '@tanstack/react-router';
import { AdminCustomerSearch } from '@/features/admin/components/admin-customer-search';
import { pageHead } from '@/lib/page-title';
import { ConsoleScreen } from '../-console-screen';

export const Route = createFileRoute('/admin/_console/customers/')({
  head: () => pageHead('Customers'),
  component: () => (
    <ConsoleScreen permission="customers.read">
      <AdminCustomerSearch />
    </ConsoleScreen>
  ),
});
