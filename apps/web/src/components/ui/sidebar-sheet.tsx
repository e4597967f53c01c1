import type * as React from 'react';
import { SIDEBAR_WIDTH_MOBILE } from '@/config/constants';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from './sheet';

/** The sidebar on a phone: an off-canvas sheet. Fetched on first use by sidebar.tsx. */
export function SidebarSheet({
  id,
  open,
  onOpenChange,
  children,
}: {
  id?: string | undefined;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: React.ReactNode;
}) {
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent
        id={id}
        side="left"
        data-slot="sidebar"
        data-mobile="true"
        className="w-(--sidebar-width) gap-0 bg-sidebar p-0 text-sidebar-foreground sm:max-w-none"
        style={{ '--sidebar-width': SIDEBAR_WIDTH_MOBILE } as React.CSSProperties}
        onCloseAutoFocus={(event) => {
          // Radix gives focus back to a Dialog trigger, and this sheet has none (SidebarTrigger only
          // toggles state), so focus fell to the page body on close. Give it to the trigger instead,
          // unless something else (say, a dialog opened from the sheet) already took it.
          event.preventDefault();
          const active = document.activeElement;
          if (active && active !== document.body) return;
          document.querySelector<HTMLElement>('[data-slot="sidebar-trigger"]')?.focus();
        }}
      >
        <SheetTitle className="sr-only">Navigation</SheetTitle>
        <SheetDescription className="sr-only">Links to every part of the portal.</SheetDescription>
        <div className="flex h-full w-full flex-col">{children}</div>
      </SheetContent>
    </Sheet>
  );
}
