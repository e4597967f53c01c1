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
      reset = confetti.reset;
      void confetti({ particleCount: 150, spread: 80, origin: { y: 0.6 }, disableForReducedMotion: true });
    });
    return () => {
      cancelled = true;
      reset?.();
    };
  }, [enabled]);
}
