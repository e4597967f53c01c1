import { createFileRoute, Navigate, useLocation } from '@tanstack/react-router';
import * as React from 'react';
import { type AuditSearch, readAuditSearch } from '@/features/admin/admin-search';
import { AdminApiKeysScreen } from '@/features/admin/components/admin-api-keys-screen';
import { AdminAuditScreen } from '@/features/admin/components/admin-audit-screen';
import { AdminCustomerSearch } from '@/features/admin/components/admin-customer-search';
import { AdminCustomerView } from '@/features/admin/components/admin-customer-view';
import { AdminReleasesScreen } from '@/features/admin/components/admin-releases-screen';
import { AdminStaffScreen } from '@/features/admin/components/admin-staff-screen';
import { AdminSupportInbox } from '@/features/admin/components/admin-support-inbox';
import { AdminSupportTicket } from '@/features/admin/components/admin-support-ticket';
import { pageHead } from '@/lib/page-title';
import { ConsoleScreen } from './-console-screen';

/** The customer's own usage chart (with recharts), loaded when a customer view has usage to draw. */
const UsageChart = React.lazy(() =>
  import('@/features/usage/components/usage-chart').then((m) => ({ default: m.UsageChart })),
);

/** Each console screen by the first part of its address, with its page title. */
const TITLES: Record<string, string> = {
  support: 'Support',
  customers: 'Customers',
  staff: 'Staff',
  'api-keys': 'API keys',
  audit: 'Audit trail',
  releases: 'Releases',
};

/**
 * Every console screen but the overview under one route: each route's entry (its path, title and
 * lazy component) is in the page entry every customer loads, and the customer pages' budgets
 * (bench/bundle-size.ts) had no room for one entry per screen (docs/decisions/077). The first part
 * of the address picks the screen; any other console address leads back to the overview.
 */
export const Route = createFileRoute('/admin/_console/$')({
  head: ({ params }) => pageHead(TITLES[params._splat?.split('/')[0] ?? ''] ?? 'Back office'),
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
        {id ? <AdminCustomerView key={id} userId={id} me={staff} usageChart={UsageChart} /> : <AdminCustomerSearch />}
      </ConsoleScreen>
    );
  if (id === '' && extra === undefined) {
    if (screen === 'staff')
      return (
        <ConsoleScreen permission="staff.manage">
          <AdminStaffScreen />
        </ConsoleScreen>
      );
    if (screen === 'api-keys')
      return (
        <ConsoleScreen permission="api_keys.manage">
          <AdminApiKeysScreen />
        </ConsoleScreen>
      );
    if (screen === 'audit') return <AuditScreen />;
    if (screen === 'releases')
      return (
        <ConsoleScreen permission="customers.read">
          <AdminReleasesScreen canManage={staff.permissions.includes('releases.manage')} />
        </ConsoleScreen>
      );
  }
  return <Navigate to="/admin" replace />;
}

/** The audit trail: its filters live in the address (no validateSearch: it would run in every page's entry). */
function AuditScreen() {
  const raw = useLocation({ select: (location) => location.search as Record<string, unknown> });
  const navigate = Route.useNavigate();
  return (
    <ConsoleScreen permission="audit.read">
      <AdminAuditScreen
        search={readAuditSearch(raw)}
        onSearchChange={(next: AuditSearch) => void navigate({ search: next as Record<string, unknown> })}
      />
    </ConsoleScreen>
  );
}
