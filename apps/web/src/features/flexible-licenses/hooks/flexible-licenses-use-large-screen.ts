import * as React from 'react';
import { DIAL_PANEL_OPEN_MIN_WIDTH_PX } from '@/config/constants';

/** spec/001's large-screen breakpoint (1024 px), the one the dial panel opens at too. */
const LARGE_QUERY = `(min-width: ${DIAL_PANEL_OPEN_MIN_WIDTH_PX}px)`;

function subscribe(onChange: () => void) {
  if (typeof window.matchMedia !== 'function') return () => {};
  const mql = window.matchMedia(LARGE_QUERY);
  mql.addEventListener('change', onChange);
  return () => mql.removeEventListener('change', onChange);
}

/** Whether the screen is 1024 px or wider: the drag overlay shows only there (spec/001 §2). */
export function useLargeScreen(): boolean {
  return React.useSyncExternalStore(
    subscribe,
    () => typeof window.matchMedia === 'function' && window.matchMedia(LARGE_QUERY).matches,
    () => false,
  );
}
