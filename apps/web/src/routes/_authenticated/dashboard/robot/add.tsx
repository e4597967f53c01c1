import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { ADD_ROBOT_SEARCH_DEFAULTS, addRobotSearchSchema } from '@/features/add-robot/add-robot-search';
import { AddRobotScreen } from '@/features/add-robot/components/add-robot-screen';
import { pageHead } from '@/lib/page-title';
import { productsQueryOptions } from '@/lib/payment-products';

export const Route = createFileRoute('/_authenticated/dashboard/robot/add')({
  head: () => pageHead('Add Robot'),
  validateSearch: addRobotSearchSchema,
  search: { middlewares: [stripSearchParams(ADD_ROBOT_SEARCH_DEFAULTS)] },
  // Starts the fetch without waiting: the screen shows its own loading and error states.
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(productsQueryOptions());
  },
  component: AddRobotRoute,
});

function AddRobotRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <AddRobotScreen
      search={search}
      onSearchChange={(next) => void navigate({ search: (prev) => ({ ...prev, ...next }), replace: true })}
    />
  );
}
