import { ChevronDownIcon } from 'lucide-react';
import * as React from 'react';
import { cn } from '@/lib/utils';

/**
 * One section that opens and closes under a heading: the look and the markup of a single-item,
 * collapsible `Accordion` (ui/accordion.tsx; a heading holding a button with `aria-expanded` and
 * `aria-controls`, a `region` named by that button, present only while open), without the
 * primitive library, for the sign-in page (docs/decisions/034). Pages with several sections use
 * Accordion, which also moves focus between their headings with the arrow keys.
 */
export function Disclosure({
  open,
  onOpenChange,
  title,
  headingLevel = 3,
  className,
  contentClassName,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: React.ReactNode;
  headingLevel?: 2 | 3 | 4;
  className?: string;
  contentClassName?: string;
  children: React.ReactNode;
}) {
  const id = React.useId();
  const triggerId = `${id}-trigger`;
  const contentId = `${id}-content`;
  const state = open ? 'open' : 'closed';
  const Heading = `h${headingLevel}` as 'h2' | 'h3' | 'h4';
  return (
    <div data-orientation="vertical">
      <div
        data-state={state}
        data-orientation="vertical"
        data-slot="accordion-item"
        className={cn('border-b last:border-b-0', className)}
      >
        <Heading data-orientation="vertical" data-state={state} className="flex">
          <button
            type="button"
            id={triggerId}
            aria-controls={contentId}
            aria-expanded={open}
            data-state={state}
            data-orientation="vertical"
            data-slot="accordion-trigger"
            className="flex flex-1 items-start justify-between gap-4 rounded-md py-4 text-left text-sm font-medium transition-all hover:underline disabled:pointer-events-none disabled:opacity-50 [&[data-state=open]>svg]:rotate-180"
            onClick={() => onOpenChange(!open)}
          >
            {title}
            <ChevronDownIcon
              aria-hidden
              className="pointer-events-none size-4 shrink-0 translate-y-0.5 text-muted-foreground transition-transform duration-200"
            />
          </button>
        </Heading>
        {open && (
          // A section named by its heading's button: a `region`, as the accordion's content is.
          <section
            id={contentId}
            aria-labelledby={triggerId}
            data-state={state}
            data-orientation="vertical"
            data-slot="accordion-content"
            className="overflow-hidden text-sm"
          >
            <div className={cn('pt-0 pb-4', contentClassName)}>{children}</div>
          </section>
        )}
      </div>
    </div>
  );
}
