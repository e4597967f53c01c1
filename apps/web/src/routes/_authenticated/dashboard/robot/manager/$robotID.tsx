import { createFileRoute } from '@tanstack/react-router';
import { RobotManageScreen } from '@/features/robots/components/robots-manage-screen';
import { useAuth } from '@/lib/auth';
import { pageHead } from '@/lib/page-title';
import { licensesQueryOptions } from '@/lib/robot-licenses';

export const Route = createFileRoute('/_authenticated/dashboard/robot/manager/$robotID')({
  head: () => pageHead('Manage Robot'),
  // Starts the fetch without waiting: the screen shows its own loader, error and not-found states.
  loader: ({ context }) => {
    const email = context.auth.user?.email;
    if (email) void context.queryClient.prefetchQuery(licensesQueryOptions(email));
  },
  component: ManageRobotRoute,
});

function ManageRobotRoute() {
  const { robotID } = Route.useParams();
  const { user } = useAuth();
  return <RobotManageScreen key={robotID} email={user?.email ?? ''} userName={user?.name} robotId={robotID} />;
}
