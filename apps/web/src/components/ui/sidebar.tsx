import { PanelLeftIcon } from 'lucide-react';
import { Slot } from 'radix-ui';
import * as React from 'react';
import { createPortal } from 'react-dom';
import { MOBILE_BREAKPOINT_PX, SIDEBAR_WIDTH, SIDEBAR_WIDTH_ICON } from '@/config/constants';
import { onDemand, prefetch } from '@/lib/on-demand';
import { cn } from '@/lib/utils';
import { Button } from './button';
import { isSidebarShortcut, parseSidebarCookie, sidebarCookie } from './sidebar-state';

// Matches Tailwind's `md` breakpoint, so CSS and JS agree on what "mobile" is.
const MOBILE_QUERY = `(max-width: ${MOBILE_BREAKPOINT_PX - 0.02}px)`;

function subscribeMobile(onChange: () => void): () => void {
  const mql = window.matchMedia(MOBILE_QUERY);
  mql.addEventListener('change', onChange);
  return () => mql.removeEventListener('change', onChange);
}

export function useIsMobile(): boolean {
  return React.useSyncExternalStore(
    subscribeMobile,
    () => window.matchMedia(MOBILE_QUERY).matches,
    () => false,
  );
}

interface SidebarContextValue {
  state: 'expanded' | 'collapsed';
  open: boolean;
  setOpen(open: boolean): void;
  openMobile: boolean;
  setOpenMobile(open: boolean): void;
  isMobile: boolean;
  toggleSidebar(): void;
}

const SidebarContext = React.createContext<SidebarContextValue | null>(null);

export function useSidebar(): SidebarContextValue {
  const ctx = React.useContext(SidebarContext);
  if (!ctx) throw new Error('useSidebar must be used inside SidebarProvider');
  return ctx;
}

function initialOpen(defaultOpen: boolean): boolean {
  if (typeof document === 'undefined') return defaultOpen;
  return parseSidebarCookie(document.cookie) ?? defaultOpen;
}

export function SidebarProvider({
  defaultOpen = true,
  className,
  style,
  children,
  ...props
}: React.ComponentProps<'div'> & { defaultOpen?: boolean }) {
  const isMobile = useIsMobile();
  const [openMobile, setOpenMobile] = React.useState(false);
  // Read during the first render so a reload shows the saved state without a flash.
  const [open, setOpenState] = React.useState(() => initialOpen(defaultOpen));

  const setOpen = React.useCallback((next: boolean) => {
    setOpenState(next);
    // biome-ignore lint/suspicious/noDocumentCookie: built by serializeCookie; the Cookie Store API is not in every browser we support.
    document.cookie = sidebarCookie(next);
  }, []);

  const toggleSidebar = React.useCallback(() => {
    if (isMobile) setOpenMobile((o) => !o);
    else setOpen(!open);
  }, [isMobile, open, setOpen]);

  React.useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isSidebarShortcut(event)) return;
      event.preventDefault();
      toggleSidebar();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [toggleSidebar]);

  // A sheet left open while the window grows past the breakpoint would trap focus invisibly.
  React.useEffect(() => {
    if (!isMobile) setOpenMobile(false);
  }, [isMobile]);

  const value = React.useMemo<SidebarContextValue>(
    () => ({
      state: open ? 'expanded' : 'collapsed',
      open,
      setOpen,
      openMobile,
      setOpenMobile,
      isMobile,
      toggleSidebar,
    }),
    [open, setOpen, openMobile, isMobile, toggleSidebar],
  );

  return (
    <SidebarContext.Provider value={value}>
      <div
        data-slot="sidebar-wrapper"
        style={
          {
            '--sidebar-width': SIDEBAR_WIDTH,
            '--sidebar-width-icon': SIDEBAR_WIDTH_ICON,
            ...style,
          } as React.CSSProperties
        }
        className={cn('flex min-h-svh w-full', className)}
        {...props}
      >
        {children}
      </div>
    </SidebarContext.Provider>
  );
}

/**
 * The phone's sidebar, an off-canvas sheet (Radix's dialog), is fetched when it first opens or when
 * the toggle is pointed at or focused (docs/decisions/034); once here it stays, so it closes with
 * its animation as before.
 */
const sidebarSheet = onDemand(() => import('./sidebar-sheet'));

function MobileSidebar(props: {
  id?: string | undefined;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: React.ReactNode;
}) {
  const loaded = sidebarSheet.useModule();
  React.useEffect(() => {
    if (props.open) prefetch(sidebarSheet);
  }, [props.open]);
  return loaded ? <loaded.SidebarSheet {...props} /> : null;
}

/** Fixed on desktop (full width or icons only); an off-canvas sheet on mobile. */
export function Sidebar({ className, children, id }: { className?: string; children: React.ReactNode; id?: string }) {
  const { isMobile, state, openMobile, setOpenMobile } = useSidebar();

  if (isMobile)
    return (
      <MobileSidebar id={id} open={openMobile} onOpenChange={setOpenMobile}>
        {children}
      </MobileSidebar>
    );

  return (
    <div
      className="group peer hidden text-sidebar-foreground md:block"
      data-state={state}
      data-collapsible={state === 'collapsed' ? 'icon' : ''}
      data-slot="sidebar"
    >
      {/* Reserves the sidebar's width in the page flow; the sidebar itself is fixed. */}
      <div className="relative w-(--sidebar-width) transition-[width] duration-200 ease-linear group-data-[collapsible=icon]:w-(--sidebar-width-icon)" />
      <aside
        id={id}
        aria-label="Sidebar"
        className={cn(
          'fixed inset-y-0 left-0 z-10 hidden h-svh w-(--sidebar-width) border-r border-sidebar-border bg-sidebar transition-[width] duration-200 ease-linear group-data-[collapsible=icon]:w-(--sidebar-width-icon) md:flex',
          className,
        )}
      >
        <div className="flex h-full w-full flex-col">{children}</div>
      </aside>
    </div>
  );
}

export function SidebarTrigger({ className, onClick, ...props }: React.ComponentProps<typeof Button>) {
  const { toggleSidebar, isMobile, open, openMobile } = useSidebar();
  return (
    <Button
      data-slot="sidebar-trigger"
      variant="ghost"
      size="icon"
      className={cn('size-8', className)}
      aria-label="Toggle sidebar"
      aria-expanded={isMobile ? openMobile : open}
      title="Toggle sidebar (Ctrl+B)"
      onPointerEnter={() => isMobile && prefetch(sidebarSheet)}
      onFocus={() => isMobile && prefetch(sidebarSheet)}
      onClick={(event) => {
        onClick?.(event);
        toggleSidebar();
      }}
      {...props}
    >
      <PanelLeftIcon />
    </Button>
  );
}

export function SidebarInset({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="sidebar-inset"
      className={cn('relative flex w-full min-w-0 flex-1 flex-col bg-background', className)}
      {...props}
    />
  );
}

export function SidebarHeader({ className, ...props }: React.ComponentProps<'div'>) {
  return <div data-slot="sidebar-header" className={cn('flex flex-col gap-2 p-2', className)} {...props} />;
}

export function SidebarFooter({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div data-slot="sidebar-footer" className={cn('flex flex-col gap-2 p-2 empty:hidden', className)} {...props} />
  );
}

export function SidebarContent({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="sidebar-content"
      className={cn(
        'flex min-h-0 flex-1 flex-col gap-2 overflow-auto group-data-[collapsible=icon]:overflow-hidden',
        className,
      )}
      {...props}
    />
  );
}

export function SidebarGroup({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div data-slot="sidebar-group" className={cn('relative flex w-full min-w-0 flex-col p-2', className)} {...props} />
  );
}

export function SidebarGroupLabel({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="sidebar-group-label"
      className={cn(
        'flex h-8 shrink-0 items-center rounded-md px-2 text-xs font-medium text-sidebar-foreground/70 group-data-[collapsible=icon]:sr-only',
        className,
      )}
      {...props}
    />
  );
}

export function SidebarMenu({ className, ...props }: React.ComponentProps<'ul'>) {
  return <ul data-slot="sidebar-menu" className={cn('flex w-full min-w-0 flex-col gap-1', className)} {...props} />;
}

export function SidebarMenuItem({ className, ...props }: React.ComponentProps<'li'>) {
  return <li data-slot="sidebar-menu-item" className={cn('group/menu-item relative', className)} {...props} />;
}

const menuButtonClass =
  'flex h-8 w-full items-center gap-2 overflow-hidden rounded-md p-2 text-left text-sm transition-[width,height,padding] hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:outline-offset-[-2px] disabled:pointer-events-none disabled:opacity-50 data-[active=true]:bg-sidebar-accent data-[active=true]:font-medium data-[status=active]:bg-sidebar-accent data-[status=active]:font-medium group-data-[collapsible=icon]:size-8! group-data-[collapsible=icon]:p-2! [&>span:last-child]:truncate [&>svg]:size-4 [&>svg]:shrink-0';

export function SidebarMenuButton({
  asChild = false,
  isActive,
  tooltip,
  className,
  ...props
}: React.ComponentProps<'button'> & { asChild?: boolean; isActive?: boolean; tooltip?: string }) {
  const { isMobile, state } = useSidebar();
  // Only icons are visible when collapsed, so the label moves into a tooltip. Otherwise it stays
  // closed: an open one would swallow the Escape meant for the mobile sheet.
  const tip = useSidebarTooltip(tooltip !== undefined && state === 'collapsed' && !isMobile, props);
  const Comp = asChild ? Slot.Root : 'button';
  return (
    <>
      <Comp
        data-slot="sidebar-menu-button"
        data-active={isActive ? 'true' : undefined}
        type={asChild ? undefined : 'button'}
        className={cn(menuButtonClass, className)}
        {...props}
        {...tip.triggerProps}
      />
      {tip.open && tooltip !== undefined && (
        <SidebarTooltip id={tip.id} anchor={tip.open}>
          {tooltip}
        </SidebarTooltip>
      )}
    </>
  );
}

type TooltipHandlers = Pick<
  React.ComponentProps<'button'>,
  'onPointerEnter' | 'onPointerLeave' | 'onPointerDown' | 'onFocus' | 'onBlur' | 'onKeyDown'
>;

/**
 * A menu button's tooltip while the sidebar shows icons only: open while the button is pointed at
 * (not by touch) or focused, closed by leaving it, pressing it or Escape. What Radix's tooltip did
 * here (open at once, to the right, centred, 4 px away), without its positioning library
 * (docs/decisions/034). The button keeps its own handlers.
 */
function useSidebarTooltip(enabled: boolean, own: TooltipHandlers) {
  const id = React.useId();
  const [anchor, setAnchor] = React.useState<DOMRect | null>(null);
  const open = enabled ? anchor : null;
  const show = (event: React.SyntheticEvent<HTMLElement>) => setAnchor(event.currentTarget.getBoundingClientRect());
  const hide = () => setAnchor(null);
  React.useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setAnchor(null);
    };
    // Placed once when it opens, so it closes when the page or the sidebar scrolls, as Radix's did.
    const onScroll = () => setAnchor(null);
    document.addEventListener('keydown', onKey);
    window.addEventListener('scroll', onScroll, { capture: true });
    return () => {
      document.removeEventListener('keydown', onKey);
      window.removeEventListener('scroll', onScroll, { capture: true });
    };
  }, [open]);
  if (!enabled) return { id, open, triggerProps: {} };
  const triggerProps: TooltipHandlers & { 'aria-describedby'?: string } = {
    'aria-describedby': open ? id : undefined,
    onPointerEnter: (event) => {
      own.onPointerEnter?.(event);
      if (event.pointerType !== 'touch') show(event);
    },
    onPointerLeave: (event) => {
      own.onPointerLeave?.(event);
      hide();
    },
    onPointerDown: (event) => {
      own.onPointerDown?.(event);
      hide();
    },
    onFocus: (event) => {
      own.onFocus?.(event);
      show(event);
    },
    onBlur: (event) => {
      own.onBlur?.(event);
      hide();
    },
  };
  return { id, open, triggerProps };
}

function SidebarTooltip({ id, anchor, children }: { id: string; anchor: DOMRect; children: React.ReactNode }) {
  return createPortal(
    <div
      id={id}
      role="tooltip"
      data-slot="tooltip-content"
      data-side="right"
      className="z-50 w-fit rounded-md bg-foreground px-3 py-1.5 text-xs text-balance text-background"
      style={{
        position: 'fixed',
        left: anchor.right + 4,
        top: anchor.top + anchor.height / 2,
        transform: 'translateY(-50%)',
      }}
    >
      {children}
    </div>,
    document.body,
  );
}

export function SidebarMenuSub({ className, ...props }: React.ComponentProps<'ul'>) {
  return (
    <ul
      data-slot="sidebar-menu-sub"
      className={cn(
        'mx-3.5 flex min-w-0 translate-x-px flex-col gap-1 border-l border-sidebar-border px-2.5 py-0.5 group-data-[collapsible=icon]:hidden',
        className,
      )}
      {...props}
    />
  );
}

export function SidebarMenuSubItem({ className, ...props }: React.ComponentProps<'li'>) {
  return <li data-slot="sidebar-menu-sub-item" className={cn('relative', className)} {...props} />;
}

export function SidebarMenuSubButton({
  asChild = false,
  className,
  ...props
}: React.ComponentProps<'a'> & { asChild?: boolean }) {
  const Comp = asChild ? Slot.Root : 'a';
  return (
    <Comp
      data-slot="sidebar-menu-sub-button"
      className={cn(
        'flex h-7 min-w-0 -translate-x-px items-center gap-2 overflow-hidden rounded-md px-2 text-sm text-sidebar-foreground hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:outline-offset-[-2px] data-[status=active]:bg-sidebar-accent data-[status=active]:font-medium [&>span:last-child]:truncate [&>svg]:size-4 [&>svg]:shrink-0',
        className,
      )}
      {...props}
    />
  );
}
