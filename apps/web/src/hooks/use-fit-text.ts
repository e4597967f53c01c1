import * as React from 'react';
import { fitFontSize } from '@/lib/fit-text';

/**
 * Shrinks a one-line text from the maximum size until it fits its box, and again whenever the box
 * is resized. Returns the ref for the element that holds the text (it must not wrap).
 */
export function useFitText<E extends HTMLElement>(
  text: string,
  { maxPx, minPx }: { maxPx: number; minPx: number },
): React.RefObject<E | null> {
  const ref = React.useRef<E>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new text needs a new fit, though the effect reads it from the DOM
  React.useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    let lastWidth = -1;
    const fit = () => {
      const width = el.clientWidth;
      if (width === lastWidth) return;
      lastWidth = width;
      el.style.fontSize = `${maxPx}px`;
      let size = fitFontSize({ textWidth: el.scrollWidth, measuredAtPx: maxPx, availableWidth: width, maxPx, minPx });
      el.style.fontSize = `${size}px`;
      // Letter spacing and kerning do not scale exactly; step down while it still overflows.
      while (size > minPx && el.scrollWidth > el.clientWidth) {
        size -= 1;
        el.style.fontSize = `${size}px`;
      }
    };
    fit();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(fit);
    observer.observe(el);
    return () => observer.disconnect();
  }, [text, maxPx, minPx]);

  return ref;
}
