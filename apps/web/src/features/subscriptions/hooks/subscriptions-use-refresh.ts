import * as React from 'react';
import { REFRESH_COOLDOWN_MS } from '@/config/constants';
import { refreshPlan } from '../subscriptions-table';

const TICK_MS = 1_000;

export interface Refresh {
  run: () => void;
  /** whole seconds of the cooldown still to run; 0 when the button can be pressed */
  secondsLeft: number;
  /** "You have no subscriptions to refresh." while it shows */
  message: string | undefined;
}

/**
 * Refresh Subscriptions (spec/001 §4): a press starts the 3-second countdown that keeps the button
 * disabled. With no subscriptions it only shows the notice for those 3 seconds; otherwise it refetches.
 */
export function useRefresh(subscriptionCount: number, refetch: () => void): Refresh {
  const [secondsLeft, setSecondsLeft] = React.useState(0);
  const [message, setMessage] = React.useState<string | undefined>(undefined);
  const timers = React.useRef<ReturnType<typeof setTimeout>[]>([]);
  React.useEffect(() => () => timers.current.forEach(clearTimeout), []);

  const run = React.useCallback(() => {
    if (secondsLeft > 0) return;
    const plan = refreshPlan(subscriptionCount);
    const total = Math.ceil(REFRESH_COOLDOWN_MS / TICK_MS);
    setSecondsLeft(total);
    timers.current.forEach(clearTimeout);
    timers.current = Array.from({ length: total }, (_, i) =>
      setTimeout(() => setSecondsLeft(total - i - 1), Math.min(REFRESH_COOLDOWN_MS, (i + 1) * TICK_MS)),
    );
    if (plan.refetch) {
      setMessage(undefined);
      refetch();
    } else {
      setMessage(plan.message);
      timers.current.push(setTimeout(() => setMessage(undefined), REFRESH_COOLDOWN_MS));
    }
  }, [secondsLeft, subscriptionCount, refetch]);

  return { run, secondsLeft, message };
}
