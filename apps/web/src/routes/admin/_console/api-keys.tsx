import { createFileRoute } from '@tanstack/react-router';
import { AdminApiKeysScreen } from '@/features/admin/components/admin-api-keys-screen';
import { pageHead } from '@/lib/page-title';
import { ConsoleScreen } from './-console-screen';

export const Route = createFileRoute('/admin/_console/api-keys')({
  head: () => pageHead('API keys'),
  component: () => (
    <ConsoleScreen permission="api_keys.manage">
      <AdminApiKeysScreen />
    </ConsoleScreen>
  ),
});
