import type { StreamMessage } from '@portal/contract';
import { LIVE_RECONNECT_BASE_MS, LIVE_RECONNECT_CAP_MS } from '@/config/constants';

/**
 * How the Robot Manager follows the live event stream (issue 15, docs/decisions/031): which cached
 * answers an event makes stale, and how long to wait before reconnecting a stream that dropped.
 */

/** The cached answers an event can make stale. */
export type LiveQuery = 'licenses' | 'robots' | 'shares';

export interface LiveEffect {
  /** a robot's availability to show at once, before the robots are read again */
  available?: { robotId: string; available: boolean };
  invalidate: LiveQuery[];
}

const EVERYTHING: LiveQuery[] = ['licenses', 'robots', 'shares'];

/** What a message of the stream changes in the cache. */
export function liveEventEffects(message: StreamMessage): LiveEffect {
  switch (message.kind) {
    case 'ready':
      return { invalidate: [] };
    case 'resync':
      return { invalidate: EVERYTHING };
    case 'robot.availability':
      return {
        ...(message.robot_id && message.available !== undefined
          ? { available: { robotId: message.robot_id, available: message.available } }
          : {}),
        invalidate: ['robots'],
      };
    case 'robot.updated':
      return { invalidate: ['robots'] };
    case 'robot.registered':
    case 'robot.unregistered':
    case 'license.granted':
    case 'license.paired':
    case 'license.unpaired':
      return { invalidate: ['licenses', 'robots'] };
    case 'share.started':
    case 'share.ended':
      return { invalidate: EVERYTHING };
  }
}

/**
 * The wait before reconnect attempt `attempt` (0 first): 1 s doubling to 30 s, less up to a fifth
 * at random so tabs that lost the server together do not come back in step.
 */
export function liveReconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const full = Math.min(LIVE_RECONNECT_CAP_MS, LIVE_RECONNECT_BASE_MS * 2 ** Math.max(0, attempt));
  return Math.round(full * (1 - 0.2 * random()));
}
