import { createFileRoute } from '@tanstack/react-router';
import { CartPage } from '@/features/cart/components/cart-page';
import { useAuth } from '@/lib/auth';
import { pageHead } from '@/lib/page-title';

export const Route = createFileRoute('/_authenticated/dashboard/cart/')({
  head: () => pageHead('Cart'),
  component: CartRoute,
});

function CartRoute() {
  const { user } = useAuth();
  return <CartPage email={user?.email ?? ''} />;
}
