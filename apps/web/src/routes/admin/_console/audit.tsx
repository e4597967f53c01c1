import { createFileRoute, useLocation } from '@tanstack/react-router';
import { type AuditSearch, readAuditSearch } from '@/features/admin/admin-search';
import { AdminAuditScreen } from '@/features/admin/components/admin-audit-screen';
import { pageHead } from '@/lib/page-title';
import { ConsoleScreen } from './-console-screen';

// No validateSearch: it would run in every page's entry. The screen reads the filters itself.
export const Route = createFileRoute('/admin/_console/audit')({
  head: () => pageHead('Audit trail'),
  component: AuditRoute,
});

function AuditRoute() {
  const raw = useLocation({ select: (location) => location.search as Record<string, unknown> });
  const navigate = Route.useNavigate();
  return (
    <ConsoleScreen permission="audit.read">
      <AdminAuditScreen
        search={readAuditSearch(raw)}
        onSearchChange={(next: AuditSearch) => void navigate({ search: next })}
      />
    </ConsoleScreen>
  );
}
