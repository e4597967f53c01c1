import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { CartSuccessPage } from '@/features/cart/components/cart-success-page';
import { useAuth } from '@/lib/auth';
import { pageHead } from '@/lib/page-title';

/** The payment provider appends the session's id when it sends the browser back. */
const searchSchema = z.object({
  session_id: z.string().trim().min(1).max(255).optional().catch(undefined),
});

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
