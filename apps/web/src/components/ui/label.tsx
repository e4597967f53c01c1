import type * as React from 'react';
import { cn } from '@/lib/utils';

/**
 * A form label. As Radix's Label: a double click on the label's text does not select it (a
 * double click on a control inside it is left alone). Written out so that forms need no primitive
 * library for their labels (docs/decisions/034).
 */
export function Label({ className, onMouseDown, ...props }: React.ComponentProps<'label'>) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: callers pass htmlFor or nest their control
    <label
      data-slot="label"
      className={cn(
        'flex items-center gap-2 text-sm font-medium leading-none select-none peer-disabled:opacity-50',
        className,
      )}
      {...props}
      onMouseDown={(event) => {
        if ((event.target as Element).closest('button, input, select, textarea')) return;
        onMouseDown?.(event);
        if (!event.defaultPrevented && event.detail > 1) event.preventDefault();
      }}
    />
  );
}
