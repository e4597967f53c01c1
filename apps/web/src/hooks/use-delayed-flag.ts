import * as React from 'react';

/** True once `active` has stayed true for `delayMs` (spec/001: the loader shows only after 700 ms). */
export function useDelayedFlag(active: boolean, delayMs: number): boolean {
  const [shown, setShown] = React.useState(false);
  React.useEffect(() => {
    if (!active) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), delayMs);
    return () => clearTimeout(timer);
  }, [active, delayMs]);
  return active && shown;
}
