import { createFileRoute } from '@tanstack/react-router';
import { FaqPage } from '@/features/faq/faq-page';
import { pageHead } from '@/lib/page-title';

export const Route = createFileRoute('/_authenticated/dashboard/faq')({
  head: () => pageHead('FAQ'),
  component: FaqRoute,
});

function FaqRoute() {
  return <FaqPage />;
}
