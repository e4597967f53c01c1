import { isClientError } from '@portal/client';
import { events, type Robot, type StreamMessage, streamMessage } from '@portal/contract';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import * as React from 'react';
import { apiClient } from '@/lib/api-client';
import { licensesKey } from '@/lib/robot-licenses';
import { robotsBaseKey } from '@/lib/robots';
import { sharesKey } from '../api/robots-get-shares';
import { type LiveQuery, liveEventEffects, liveReconnectDelayMs } from '../robots-live';

/** `open`: events arrive, no need to poll; otherwise the spec's polling is the fallback. */
export type LiveState = 'connecting' | 'open' | 'down';

const KEYS: Record<LiveQuery, (email: string) => readonly unknown[]> = {
  licenses: licensesKey,
  robots: robotsBaseKey,
  shares: sharesKey,
};

function apply(queryClient: QueryClient, email: string, message: StreamMessage): void {
  const effect = liveEventEffects(message);
  if (effect.available) {
    const { robotId, available } = effect.available;
    // The card flips at once; the read that follows brings the rest (last seen).
    queryClient.setQueriesData<Robot[]>({ queryKey: robotsBaseKey(email) }, (robots) =>
      robots?.map((r) => (r.robot_id === robotId ? { ...r, robot_state: { ...r.robot_state, available } } : r)),
    );
  }
  for (const query of effect.invalidate) void queryClient.invalidateQueries({ queryKey: KEYS[query](email) });
}

function parse(data: unknown): StreamMessage | undefined {
  try {
    const parsed = streamMessage.safeParse(JSON.parse(String(data)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The live event stream of the signed-in user (docs/decisions/031) while the screen is open: a
 * ticket from OpenEventStream, then EventSource on the path it names (the access token stays out
 * of the URL). Events update or invalidate the robots and licenses in the cache. A stream that
 * drops is opened again with a new ticket after a backoff; events missed meanwhile are caught up
 * by reading everything again once it is back.
 */
export function useLiveRobotEvents(email: string): LiveState {
  const queryClient = useQueryClient();
  const [state, setState] = React.useState<LiveState>(() =>
    typeof EventSource === 'undefined' ? 'down' : 'connecting',
  );

  React.useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    let source: EventSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let wasOpen = false;
    let stopped = false;
    /** a ticket is being asked for */
    let asking = false;

    // While the browser says it is offline, nothing is tried (the data loads wait the same way);
    // coming back online opens the stream at once.
    const offline = () => typeof navigator !== 'undefined' && navigator.onLine === false;
    const retry = () => {
      if (stopped) return;
      setState('down');
      if (offline()) return;
      timer = setTimeout(() => void connect(), liveReconnectDelayMs(attempt));
      attempt += 1;
    };
    const online = () => {
      if (stopped || source || asking) return;
      if (timer) clearTimeout(timer);
      timer = undefined;
      attempt = 0;
      void connect();
    };
    window.addEventListener('online', online);

    const connect = async () => {
      if (offline()) {
        setState('down');
        return;
      }
      let path: string;
      asking = true;
      try {
        path = (await apiClient.call(events, 'OpenEventStream', { email })).stream_path;
      } catch (err) {
        // Signed out: the app sends the user to sign in; nothing to reconnect to.
        if (isClientError(err, 'unauthenticated')) setState('down');
        else retry();
        return;
      } finally {
        asking = false;
      }
      if (stopped) return;
      source = new EventSource(path);
      source.onmessage = (e) => {
        const message = parse(e.data);
        if (!message) return;
        if (message.kind === 'ready') {
          attempt = 0;
          setState('open');
          if (wasOpen) apply(queryClient, email, { kind: 'resync' });
          wasOpen = true;
          return;
        }
        apply(queryClient, email, message);
      };
      // EventSource would retry with the same (spent) ticket: close it and start over.
      source.onerror = () => {
        source?.close();
        source = undefined;
        retry();
      };
    };

    void connect();
    return () => {
      stopped = true;
      window.removeEventListener('online', online);
      source?.close();
      if (timer) clearTimeout(timer);
    };
  }, [email, queryClient]);

  return state;
}
