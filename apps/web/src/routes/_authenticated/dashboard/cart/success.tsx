import { createFileRoute } from '@tanstack/react-router';
import { CartSuccessPage } from '@/features/cart/components/cart-success-page';
import { useAuth } from '@/lib/auth';
import { pageHead } from '@/lib/page-title';
import { defined, searchParser, text } from '@/lib/search-params';

/** The payment provider appends the session's id when it sends the browser back. */
const searchSchema = searchParser((raw): { session_id?: string } =>
  defined({ session_id: text(raw.session_id, { min: 1, max: 255, trim: true }) }),
);

export const Route = createFileRoute('/_authenticated/dashboard/cart/success')({
  head: () => pageHead('Payment Successful'),
  validateSearch: searchSchema,
  component: CartSuccessRoute,
});

function CartSuccessRoute() {
  const { session_id } = Route.useSearch();
  const { user } = useAuth();
  return <CartSuccessPage email={user?.email ?? ''} sessionId={session_id} />;
}
