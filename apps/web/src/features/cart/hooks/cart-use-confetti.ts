import * as React from 'react';

/** How long the burst may run before its canvas is cleared: short, so it never keeps the receipt company. */
export const CONFETTI_MS = 1_200;
/** Frames a particle lives (the library's default is 200, about 3 s at 60 fps). */
export const CONFETTI_TICKS = 70;

/**
 * One short burst of confetti once `enabled` (the payment is confirmed) (spec/001 §2 Payment
 * Successful), drawn on the page's own canvas, which sits behind the card so it never covers the
 * text or the button (the library's own canvas is fixed above everything). None for people who
 * asked their system for less motion. The library is loaded on demand: only this page needs it.
 */
export function useConfetti(canvas: React.RefObject<HTMLCanvasElement | null>, enabled = true): void {
  React.useEffect(() => {
    if (!enabled || !canvas.current) return;
    if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
    const target = canvas.current;
    let cancelled = false;
    let reset: (() => void) | undefined;
    const stop = window.setTimeout(() => reset?.(), CONFETTI_MS);
    void import('canvas-confetti').then(({ default: confetti }) => {
      if (cancelled) return;
      // No worker: it would be created from a blob: URL, which the CSP's script-src 'self' refuses.
      const fire = confetti.create(target, { useWorker: false, resize: true });
      reset = fire.reset;
      void fire({
        particleCount: 120,
        spread: 80,
        origin: { y: 0.6 },
        ticks: CONFETTI_TICKS,
        disableForReducedMotion: true,
      });
    });
    return () => {
      cancelled = true;
      window.clearTimeout(stop);
      reset?.();
    };
  }, [canvas, enabled]);
}
