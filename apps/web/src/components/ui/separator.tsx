import type * as React from 'react';
import { cn } from '@/lib/utils';

/**
 * A rule between content. The markup of Radix's Separator (decorative: `role="none"`; otherwise
 * `role="separator"` with `aria-orientation` when vertical), written out: pages that show one need
 * no primitive library for it (docs/decisions/034).
 */
export function Separator({
  className,
  orientation = 'horizontal',
  decorative = true,
  ...props
}: React.ComponentProps<'div'> & { orientation?: 'horizontal' | 'vertical'; decorative?: boolean }) {
  const semantic = decorative
    ? { role: 'none' }
    : { role: 'separator', 'aria-orientation': orientation === 'vertical' ? orientation : undefined };
  return (
    <div
      data-orientation={orientation}
      {...semantic}
      className={cn(
        'shrink-0 bg-border data-[orientation=horizontal]:h-px data-[orientation=horizontal]:w-full data-[orientation=vertical]:h-full data-[orientation=vertical]:w-px',
        className,
      )}
      {...props}
    />
  );
}
