import { createFileRoute } from '@tanstack/react-router';
import { usePageTitle } from '@/features/errors/errors-page-title';
import { FaqPage } from '@/features/faq/faq-page';

export const Route = createFileRoute('/_authenticated/dashboard/faq')({
  component: FaqRoute,
});

function FaqRoute() {
  usePageTitle('FAQ');
  return <FaqPage />;
}
