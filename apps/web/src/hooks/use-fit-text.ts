import * as React from 'react';
import { fitFontSize } from '@/lib/fit-text';

/** What fitting reads and writes of an element (an HTMLElement; a test's stand-in). */
export interface FitTarget {
  readonly clientWidth: number;
  readonly scrollWidth: number;
  style: { fontSize: string };
}

export interface FitBounds {
  maxPx: number;
  minPx: number;
}

/**
 * Fits every text at once, each to its box: all sizes written, then all widths read, then all
 * written again. Reading a width after a write makes the browser lay the page out again, so fitting
 * the cards one by one (write, read, write, read for each) laid the dashboard out three times a
 * card in the task that shows them (docs/decisions/044). Here it is laid out twice, plus once per
 * correction step, which only letter spacing and kerning ever need.
 */
export function fitAll(targets: readonly (readonly [FitTarget, FitBounds])[]): void {
  for (const [el, { maxPx }] of targets) el.style.fontSize = `${maxPx}px`;
  const measured = targets.map(([el, bounds]) => ({ el, bounds, width: el.clientWidth, textWidth: el.scrollWidth }));
  const sized = measured.map(({ el, bounds, width, textWidth }) => {
    const size = fitFontSize({ textWidth, measuredAtPx: bounds.maxPx, availableWidth: width, ...bounds });
    return { el, minPx: bounds.minPx, size };
  });
  for (const s of sized) s.el.style.fontSize = `${s.size}px`;
  // Letter spacing and kerning do not scale exactly: step down while one still overflows.
  const overflows = (s: (typeof sized)[number]) => s.size > s.minPx && s.el.scrollWidth > s.el.clientWidth;
  for (let over = sized.filter(overflows); over.length > 0; over = over.filter(overflows)) {
    for (const s of over) {
      s.size -= 1;
      s.el.style.fontSize = `${s.size}px`;
    }
  }
}

/** Texts waiting to be fitted; fitted together at the end of the task, before the browser paints. */
const pending = new Map<FitTarget, FitBounds>();
function fitLater(el: FitTarget, bounds: FitBounds): void {
  if (pending.size === 0)
    queueMicrotask(() => {
      const targets = [...pending];
      pending.clear();
      fitAll(targets);
    });
  pending.set(el, bounds);
}

/**
 * Shrinks a one-line text from the maximum size until it fits its box, and again whenever the box
 * is resized. Returns the ref for the element that holds the text (it must not wrap). Texts shown
 * in the same task are fitted together (fitAll).
 */
export function useFitText<E extends HTMLElement>(
  text: string,
  { maxPx, minPx }: FitBounds,
): React.RefObject<E | null> {
  const ref = React.useRef<E>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new text needs a new fit, though the fit reads it from the DOM
  React.useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const bounds = { maxPx, minPx };
    fitLater(el, bounds);
    if (typeof ResizeObserver === 'undefined') return;
    // The observer's sizes come without a layout of their own; its first report (on observing) is
    // the size just fitted for.
    let lastWidth: number | undefined;
    const observer = new ResizeObserver(([entry]) => {
      const width = entry?.contentRect.width;
      if (width === undefined || width === lastWidth) return;
      if (lastWidth !== undefined) fitLater(el, bounds);
      lastWidth = width;
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      pending.delete(el);
    };
  }, [text, maxPx, minPx]);

  return ref;
}
