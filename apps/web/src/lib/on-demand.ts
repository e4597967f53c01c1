import * as React from 'react';

/**
 * Code a page fetches on first use rather than on load: menus, popovers, dialogs and sheets open
 * behind a click, so their code (and the primitive library under it) is not part of the page's
 * JavaScript (docs/decisions/034). `preload()` starts the fetch (called on hover or focus of what
 * opens it, so the code is usually here before the click); `useModule()` answers the module once it
 * has arrived, and re-renders its caller then. A failed fetch is forgotten, so the next use retries.
 */
export interface OnDemand<T> {
  preload: () => Promise<T>;
  useModule: () => T | undefined;
}

export function onDemand<T>(load: () => Promise<T>): OnDemand<T> {
  let loaded: T | undefined;
  let pending: Promise<T> | undefined;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };
  const snapshot = () => loaded;
  return {
    preload() {
      pending ??= load().then(
        (module) => {
          loaded = module;
          for (const listener of listeners) listener();
          return module;
        },
        (err: unknown) => {
          pending = undefined;
          throw err;
        },
      );
      return pending;
    },
    useModule: () => React.useSyncExternalStore(subscribe, snapshot, snapshot),
  };
}

/** Starts a fetch without waiting for it; a failure shows as the overlay not opening, and the next use retries. */
export function prefetch(module: OnDemand<unknown>): void {
  module.preload().catch(() => undefined);
}

/**
 * The stand-in for an overlay's trigger while the overlay's code is on its way: handlers that fetch
 * it on hover and focus, and remember a press (`opener`: a primary pointer press for menus, which
 * open on pointer down, and Enter, Space or ArrowDown) so the overlay opens as soon as it arrives.
 * `openedByKeyboard` says the press was a key (a menu then focuses its first item, as Radix does for
 * a keyboard open: see `useArrivalFocus`). `focusOnArrival` is whether the stand-in had focus, so
 * the real trigger can take it over.
 */
export function useStandInTrigger(module: OnDemand<unknown>, opensOn: 'pointerdown' | 'click') {
  const [opened, setOpened] = React.useState<'pointer' | 'keyboard'>();
  const focused = React.useRef(false);
  const open = (by: 'pointer' | 'keyboard') => {
    setOpened(by);
    prefetch(module);
  };
  const handlers = {
    onPointerEnter: () => prefetch(module),
    onFocus: () => {
      focused.current = true;
      prefetch(module);
    },
    onBlur: () => {
      focused.current = false;
    },
    ...(opensOn === 'pointerdown'
      ? {
          onPointerDown: (event: React.PointerEvent) => {
            if (event.button === 0 && !event.ctrlKey) open('pointer');
          },
          onKeyDown: (event: React.KeyboardEvent) => {
            if (event.key === 'Enter' || event.key === ' ' || event.key === 'ArrowDown') {
              event.preventDefault();
              open('keyboard');
            }
          },
        }
      : { onClick: () => open('pointer') }),
  };
  return {
    handlers,
    /** how the real menu starts, read when it replaces the stand-in */
    arrival: (): Arrival => ({
      open: opened !== undefined,
      byKeyboard: opened === 'keyboard',
      focused: focused.current,
    }),
  };
}

/** How an overlay's stand-in was left when the real overlay arrived. */
export interface Arrival {
  /** it was pressed: the overlay opens at once */
  open: boolean;
  /** the press was a key: a menu's first item takes the focus */
  byKeyboard: boolean;
  /** it had focus: the real trigger takes it over (when the overlay does not open) */
  focused: boolean;
}

/**
 * What a menu that replaces its stand-in needs: `trigger`, its trigger's ref, which takes the focus
 * over if the stand-in had it; `onContentFocus`, its content's `onFocus`. Radix focuses the content
 * when it opens; on the first open, after a key press on the stand-in, this passes the focus on to
 * the first item that can be chosen, as Radix does when it saw the key itself (but the key was
 * pressed before Radix was here). Later opens are left to Radix.
 */
export function useMenuArrival(arrival: Arrival) {
  const trigger = React.useRef<HTMLButtonElement>(null);
  const pending = React.useRef(arrival.byKeyboard);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when this replaces the stand-in
  React.useEffect(() => {
    if (arrival.focused && !arrival.open) trigger.current?.focus();
  }, []);
  const onContentFocus = React.useCallback((event: React.FocusEvent<HTMLElement>) => {
    if (!pending.current || event.target !== event.currentTarget) return;
    pending.current = false;
    event.currentTarget
      .querySelector<HTMLElement>(
        '[role="menuitem"]:not([data-disabled]), [role="menuitemradio"]:not([data-disabled]), [role="menuitemcheckbox"]:not([data-disabled])',
      )
      ?.focus({ preventScroll: true });
  }, []);
  return { trigger, onContentFocus };
}
