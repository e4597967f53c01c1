import { createFileRoute } from '@tanstack/react-router';
import { CartCancelPage } from '@/features/cart/components/cart-cancel-page';
import { pageHead } from '@/lib/page-title';

export const Route = createFileRoute('/_authenticated/dashboard/cart/cancel')({
  head: () => pageHead('Payment Cancelled'),
  component: CartCancelPage,
});
