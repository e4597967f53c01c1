import { Slot } from 'radix-ui';
import * as React from 'react';

/**
 * A section that a trigger opens and closes: the parts, attributes and behaviour of Radix's
 * Collapsible as this app uses it (controlled `open`, `asChild`; the trigger a button with
 * `aria-expanded` and `aria-controls`, `data-state` on all three parts, the content present only
 * while open), in a few lines on the Slot the entry already carries. Radix's, with its presence
 * machinery, was 3 KB gzip on every signed-in page (issue 13).
 */
const CollapsibleContext = React.createContext<{ open: boolean; toggle: () => void; contentId: string } | null>(null);

function useCollapsible(part: string) {
  const context = React.useContext(CollapsibleContext);
  if (!context) throw new Error(`${part} must be inside a Collapsible`);
  return context;
}

const stateOf = (open: boolean) => (open ? 'open' : 'closed');

export function Collapsible({
  open,
  onOpenChange,
  asChild,
  ...props
}: React.ComponentProps<'div'> & { open: boolean; onOpenChange: (open: boolean) => void; asChild?: boolean }) {
  const contentId = React.useId();
  const value = React.useMemo(
    () => ({ open, toggle: () => onOpenChange(!open), contentId }),
    [open, onOpenChange, contentId],
  );
  const Root = asChild ? Slot.Root : 'div';
  return (
    <CollapsibleContext.Provider value={value}>
      <Root data-state={stateOf(open)} {...props} />
    </CollapsibleContext.Provider>
  );
}

export function CollapsibleTrigger({
  asChild,
  onClick,
  ...props
}: React.ComponentProps<'button'> & { asChild?: boolean }) {
  const { open, toggle, contentId } = useCollapsible('CollapsibleTrigger');
  const Trigger = asChild ? Slot.Root : 'button';
  return (
    <Trigger
      type="button"
      aria-controls={contentId}
      aria-expanded={open}
      data-state={stateOf(open)}
      onClick={(event: React.MouseEvent<HTMLButtonElement>) => {
        onClick?.(event);
        if (!event.defaultPrevented) toggle();
      }}
      {...props}
    />
  );
}

export function CollapsibleContent(props: React.ComponentProps<'div'>) {
  const { open, contentId } = useCollapsible('CollapsibleContent');
  if (!open) return null;
  return <div id={contentId} data-state={stateOf(open)} {...props} />;
}
