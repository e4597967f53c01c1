import { createFileRoute } from '@tanstack/react-router';
import { AuthLayout } from '@/features/auth/components/auth-layout';
import { authLayoutSearchSchema } from '@/features/auth/utils/auth-search';

export const Route = createFileRoute('/auth')({
  validateSearch: authLayoutSearchSchema,
  component: AuthLayoutRoute,
});

function AuthLayoutRoute() {
  const { target } = Route.useSearch();
  return <AuthLayout target={target} />;
}
