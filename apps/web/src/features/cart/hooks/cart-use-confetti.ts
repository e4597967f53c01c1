import * as React from 'react';

/**
 * One burst of confetti once `enabled` (the payment is confirmed) (spec/001 §2 Payment Successful), and none for people
 * who asked their system for less motion. The library is loaded on demand: only this page needs it.
 */
export function useConfetti(enabled = true): void {
  React.useEffect(() => {
    if (!enabled) return;
    if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
    let cancelled = false;
    let reset: (() => void) | undefined;
    void import('canvas-confetti').then(({ default: confetti }) => {
      if (cancelled) return;
      // No worker: it would be created from a blob: URL, which the CSP's script-src 'self' refuses.
      const fire = confetti.create(undefined, { useWorker: false, resize: true });
      reset = fire.reset;
      void fire({ particleCount: 150, spread: 80, origin: { y: 0.6 }, disableForReducedMotion: true });
    });
    return () => {
      cancelled = true;
      reset?.();
    };
  }, [enabled]);
}
