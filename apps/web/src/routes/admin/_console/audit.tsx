import { createFileRoute, redirect } from '@tanstack/react-router';
import type { AuditSearch } from '@/features/admin/admin-audit-search';
import { AdminAuditScreen } from '@/features/admin/components/admin-audit-screen';
import { pageHead } from '@/lib/page-title';
import { auditSearch } from '../-audit-search';

export const Route = createFileRoute('/admin/_console/audit')({
  head: () => pageHead('Audit trail'),
  validateSearch: auditSearch,
  // The screen is not offered to a role the server would refuse (it still decides every call).
  beforeLoad: ({ context }) => {
    if (!context.staff.permissions.includes('audit.read')) throw redirect({ to: '/admin', replace: true });
  },
  component: AuditRoute,
});

function AuditRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <AdminAuditScreen
      search={search}
      onSearchChange={(next: AuditSearch) => void navigate({ search: next, replace: false })}
    />
  );
}
