import type * as React from 'react';
import { cn } from '@/lib/utils';

/**
 * A table that scrolls sideways on a narrow screen inside a labelled, focusable region, so a
 * keyboard can scroll it too and a screen reader names it. `relative`: the visually hidden texts in
 * its cells (absolutely positioned) stay inside it, or the whole page would scroll sideways.
 */
export function AdminTableRegion({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the focus to scroll by keyboard (WCAG 2.1.1)
      tabIndex={0}
      className={cn('relative w-full min-w-0 overflow-x-auto rounded-md border', className)}
    >
      <table className="w-full caption-bottom text-sm">{children}</table>
    </section>
  );
}
