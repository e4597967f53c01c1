import { type Robot, robots as robotsService } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Freshness } from '@/config/constants';
import { apiClient, failedAs } from './api-client';

export type RobotsKind = 'paired' | 'shared';

export const ROBOTS_FAILED: Record<RobotsKind, string> = {
  paired: 'Failed to fetch paired robots',
  shared: 'Failed to fetch shared robots',
};

export interface RobotRef {
  robot_id: string;
  asset_id: string;
}

/**
 * GetRobots, called once for the user's licenses that have a robot and once for the shared ones
 * (spec/001 §7). Nothing to ask about answers no robots without a call.
 */
export async function fetchRobots(
  email: string,
  kind: RobotsKind,
  refs: readonly RobotRef[],
  csrf?: Promise<string>,
): Promise<Robot[]> {
  if (refs.length === 0) return [];
  try {
    const res = await apiClient.call(robotsService, 'GetRobots', { email, robot_licenses: [...refs] }, { csrf });
    return res.robots;
  } catch (err) {
    throw failedAs(err, ROBOTS_FAILED[kind]);
  }
}

/** Every GetRobots query of a user; mutations invalidate through it. */
export const robotsBaseKey = (email: string) => ['robots', 'GetRobots', email] as const;

/**
 * `csrfAhead`: hands out, once, a CSRF token fetched ahead, for a prefetch that knows the call is
 * coming (robots-prefetch.ts); a later run of the query fetches its own.
 */
export function robotsQueryOptions(
  email: string,
  kind: RobotsKind,
  refs: readonly RobotRef[],
  csrfAhead?: () => Promise<string> | undefined,
) {
  return queryOptions({
    queryKey: [...robotsBaseKey(email), kind, refs.map((r) => r.robot_id)] as const,
    queryFn: () => fetchRobots(email, kind, refs, csrfAhead?.()),
    staleTime: Freshness.robots.staleMs,
    refetchInterval: Freshness.robots.refetchMs,
  });
}

/** `poll: false` stops the spec's 60 s refetch (the live stream keeps the answer fresh instead). */
export function useRobots(
  email: string,
  kind: RobotsKind,
  refs: readonly RobotRef[] | undefined,
  { poll = true }: { poll?: boolean } = {},
) {
  return useQuery({
    ...robotsQueryOptions(email, kind, refs ?? []),
    enabled: refs !== undefined,
    ...(poll ? {} : { refetchInterval: false as const }),
  });
}
