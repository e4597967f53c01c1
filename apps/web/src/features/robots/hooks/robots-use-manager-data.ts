import * as React from 'react';
import { useLicenses } from '@/lib/robot-licenses';
import { useRobots } from '@/lib/robots';
import { licensesWithRobot, type RobotCardModel, robotCards } from '../robots-cards';

export type RobotManagerData =
  | { status: 'pending' }
  | { status: 'error'; error: Error; retry: () => void }
  | { status: 'success'; mine: RobotCardModel[]; shared: RobotCardModel[] };

/**
 * The Robot Manager's data: GetLicenses, then GetRobots once for the user's paired licenses and once
 * for the shared ones. A background refetch that fails keeps the cards already shown. `poll: false`
 * while the live stream is open (the stream keeps them fresh) or when the deployment turned polling off.
 */
export function useRobotManagerData(email: string, { poll = true }: { poll?: boolean } = {}): RobotManagerData {
  const licenses = useLicenses(email, { poll });
  const ownRefs = React.useMemo(
    () => (licenses.data ? licensesWithRobot(licenses.data.robot_licenses) : undefined),
    [licenses.data],
  );
  const sharedRefs = React.useMemo(
    () => (licenses.data ? licensesWithRobot(licenses.data.shared_robot_licenses) : undefined),
    [licenses.data],
  );
  const paired = useRobots(email, 'paired', ownRefs, { poll });
  const shared = useRobots(email, 'shared', sharedRefs, { poll });

  const cards = React.useMemo(() => {
    if (!licenses.data || !paired.data || !shared.data) return undefined;
    return {
      mine: robotCards(licenses.data.robot_licenses, paired.data, { shared: false }),
      shared: robotCards(licenses.data.shared_robot_licenses, shared.data, { shared: true }),
    };
  }, [licenses.data, paired.data, shared.data]);

  const retry = React.useCallback(() => {
    void licenses.refetch();
    if (paired.isError) void paired.refetch();
    if (shared.isError) void shared.refetch();
  }, [licenses, paired, shared]);

  if (cards) return { status: 'success', ...cards };
  const error = licenses.error ?? paired.error ?? shared.error;
  if (error) return { status: 'error', error, retry };
  return { status: 'pending' };
}
