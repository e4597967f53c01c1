import { onlineManager, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { preloadImages } from '@/lib/preload-images';
import { licensesQueryOptions } from '@/lib/robot-licenses';
import { robotsQueryOptions } from '@/lib/robots';
import { firstCardImages, licensesWithRobot } from './robots-cards';

/**
 * The cards whose pictures are fetched early: those a phone shows first. More would take the six
 * connections a browser opens to the portal from the two GetRobots, sent at the same moment.
 */
const FIRST_CARDS = 2;

/** A token for one POST: handed out once (handled, so an unused one that failed is not an unhandled rejection). */
function once(token: Promise<string>): () => Promise<string> | undefined {
  token.catch(() => undefined);
  let left: Promise<string> | undefined = token;
  return () => {
    const taken = left;
    left = undefined;
    return taken;
  };
}

/**
 * The Robot Manager's calls from its route's loader (decision 044): GetLicences, and as soon as it
 * answers, the two GetRobots (under the keys useRobotManagerData asks for, with CSRF tokens fetched
 * meanwhile) and the first cards' pictures, without waiting for the screen to render the licenses
 * first. A failure is left to the screen's own queries, which show it.
 */
export function prefetchRobotManager(queryClient: QueryClient, email: string): void {
  const licences = licensesQueryOptions(email);
  const fetching = () => queryClient.getQueryState(licences.queryKey)?.fetchStatus === 'fetching';
  const wasFetching = fetching();
  const answered = queryClient.fetchQuery(licences);
  // The two GetRobots' CSRF tokens are asked for beside GetLicences (decision 046): each POST still
  // has a GET of its own before it, and GetRobots waits for GetLicences' answer only. Only when this
  // run has just sent GetLicences: a second run of the loader (the warm start's preload, then the
  // load once the session check answers) finds it answered or on its way, and GetRobots with it, so
  // tokens asked for then would go unused (decision 047). Offline nothing is sent (the query waits
  // for the network, paused), and no token is asked for either.
  const sent = !wasFetching && fetching() && onlineManager.isOnline();
  const ahead = () => (sent ? once(apiClient.csrf()) : undefined);
  const tokens = [ahead(), ahead()] as const;
  answered.then(
    (licenses) => {
      void queryClient.prefetchQuery(
        robotsQueryOptions(email, 'paired', licensesWithRobot(licenses.robot_licenses), tokens[0]),
      );
      void queryClient.prefetchQuery(
        robotsQueryOptions(email, 'shared', licensesWithRobot(licenses.shared_robot_licenses), tokens[1]),
      );
      preloadImages(firstCardImages(licenses, FIRST_CARDS));
    },
    () => {},
  );
}
