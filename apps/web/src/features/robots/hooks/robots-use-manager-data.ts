import * as React from 'react';
import { useLicences } from '../api/robots-licences';
import { useRobots } from '../api/robots-robots';
import { licencesWithRobot, type RobotCardModel, robotCards } from '../robots-cards';

export type RobotManagerData =
  | { status: 'pending' }
  | { status: 'error'; error: Error; retry: () => void }
  | { status: 'success'; mine: RobotCardModel[]; shared: RobotCardModel[] };

/**
 * The Robot Manager's data: GetLicences, then GetRobots once for the user's paired licences and once
 * for the shared ones. A background refetch that fails keeps the cards already shown.
 */
export function useRobotManagerData(email: string): RobotManagerData {
  const licences = useLicences(email);
  const ownRefs = React.useMemo(
    () => (licences.data ? licencesWithRobot(licences.data.robot_licenses) : undefined),
    [licences.data],
  );
  const sharedRefs = React.useMemo(
    () => (licences.data ? licencesWithRobot(licences.data.shared_robot_licenses) : undefined),
    [licences.data],
  );
  const paired = useRobots(email, 'paired', ownRefs);
  const shared = useRobots(email, 'shared', sharedRefs);

  const cards = React.useMemo(() => {
    if (!licences.data || !paired.data || !shared.data) return undefined;
    return {
      mine: robotCards(licences.data.robot_licenses, paired.data, { shared: false }),
      shared: robotCards(licences.data.shared_robot_licenses, shared.data, { shared: true }),
    };
  }, [licences.data, paired.data, shared.data]);

  const retry = React.useCallback(() => {
    void licences.refetch();
    if (paired.isError) void paired.refetch();
    if (shared.isError) void shared.refetch();
  }, [licences, paired, shared]);

  if (cards) return { status: 'success', ...cards };
  const error = licences.error ?? paired.error ?? shared.error;
  if (error) return { status: 'error', error, retry };
  return { status: 'pending' };
}
