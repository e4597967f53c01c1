import { Link, useRouterState } from '@tanstack/react-router';
import { BookOpenIcon, ChevronRightIcon, CompassIcon, ExternalLinkIcon, GraduationCapIcon } from 'lucide-react';
import * as React from 'react';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@/components/ui/collapsible';
import {
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarGroup,
  SidebarGroupLabel,
  SidebarHeader,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  SidebarMenuSub,
  SidebarMenuSubButton,
  SidebarMenuSubItem,
  useSidebar,
} from '@/components/ui/sidebar';
import { env } from '@/config/env';
import { onDemand, useStandInTrigger } from '@/lib/on-demand';
import { AppShellLogo } from './app-shell-logo';
import { initialGroupOpen, isNavGroup, isPathActive, type NavGroup, type NavLink, PLATFORM_NAV } from './app-shell-nav';
import { navTo, SidebarGroupButton } from './app-shell-sidebar-group-button';

export const SIDEBAR_ID = 'app-sidebar';

function usePathname(): string {
  return useRouterState({ select: (s) => s.location.pathname });
}

/** On mobile the sidebar is a sheet over the page; following a link should reveal the page. */
function useCloseOnMobile(): () => void {
  const { isMobile, setOpenMobile } = useSidebar();
  return React.useCallback(() => {
    if (isMobile) setOpenMobile(false);
  }, [isMobile, setOpenMobile]);
}

function NavLinkItem({ item }: { item: NavLink }) {
  const close = useCloseOnMobile();
  const Icon = item.icon;
  return (
    <SidebarMenuItem>
      <SidebarMenuButton asChild tooltip={item.title}>
        <Link to={navTo(item.to)} activeOptions={{ exact: item.exact ?? false }} onClick={close}>
          <Icon aria-hidden />
          <span>{item.title}</span>
        </Link>
      </SidebarMenuButton>
    </SidebarMenuItem>
  );
}

/** A group's menu beside its icon (Radix's dropdown menu) is fetched when its button is pointed at, focused or pressed. */
const collapsedGroupMenu = onDemand(() => import('./app-shell-sidebar-group-menu'));

function CollapsedGroup({ group, childActive }: { group: NavGroup; childActive: boolean }) {
  const loaded = collapsedGroupMenu.useModule();
  const standIn = useStandInTrigger(collapsedGroupMenu, 'pointerdown');
  if (loaded) return <loaded.SidebarGroupMenu group={group} childActive={childActive} arrival={standIn.arrival()} />;
  // The same button, as the menu's trigger renders it while closed.
  return (
    <SidebarGroupButton
      group={group}
      childActive={childActive}
      aria-haspopup="menu"
      aria-expanded={false}
      data-state="closed"
      {...standIn.handlers}
    />
  );
}

function NavGroupItem({ group }: { group: NavGroup }) {
  const pathname = usePathname();
  const { state, isMobile } = useSidebar();
  const close = useCloseOnMobile();
  const childActive = group.items.some((i) => isPathActive(pathname, i.to));
  const [open, setOpen] = React.useState(() => initialGroupOpen(group.collapse, childActive));
  const Icon = group.icon;

  React.useEffect(() => {
    if (childActive) setOpen(true);
  }, [childActive]);

  // With icons only there is no room for the children, so they move into a menu beside the icon.
  if (state === 'collapsed' && !isMobile) {
    return (
      <SidebarMenuItem>
        <CollapsedGroup group={group} childActive={childActive} />
      </SidebarMenuItem>
    );
  }

  const subMenu = (
    <SidebarMenuSub>
      {group.items.map((item) => (
        <SidebarMenuSubItem key={item.to}>
          <SidebarMenuSubButton asChild>
            <Link to={navTo(item.to)} onClick={close}>
              <span>{item.title}</span>
            </Link>
          </SidebarMenuSubButton>
        </SidebarMenuSubItem>
      ))}
    </SidebarMenuSub>
  );

  if (group.collapse === 'always') {
    return (
      <SidebarMenuItem>
        <SidebarMenuButton asChild isActive={childActive} className="hover:bg-transparent">
          <span>
            <Icon aria-hidden />
            <span>{group.title}</span>
          </span>
        </SidebarMenuButton>
        {subMenu}
      </SidebarMenuItem>
    );
  }

  return (
    <Collapsible asChild open={open} onOpenChange={setOpen}>
      <SidebarMenuItem className="group/collapsible">
        <CollapsibleTrigger asChild>
          <SidebarMenuButton tooltip={group.title} isActive={childActive && !open}>
            <Icon aria-hidden />
            <span>{group.title}</span>
            <ChevronRightIcon
              aria-hidden
              className="ml-auto transition-transform duration-200 group-data-[state=open]/collapsible:rotate-90"
            />
          </SidebarMenuButton>
        </CollapsibleTrigger>
        <CollapsibleContent>{subMenu}</CollapsibleContent>
      </SidebarMenuItem>
    </Collapsible>
  );
}

function ExternalItem({ title, href, icon: Icon }: { title: string; href: string; icon: typeof BookOpenIcon }) {
  return (
    <SidebarMenuItem>
      <SidebarMenuButton asChild tooltip={title}>
        <a href={href} target="_blank" rel="noreferrer">
          <Icon aria-hidden />
          <span className="flex flex-1 items-center justify-between gap-2">
            {title}
            <ExternalLinkIcon aria-hidden className="size-3.5 opacity-60" />
            <span className="sr-only">(opens in a new tab)</span>
          </span>
        </a>
      </SidebarMenuButton>
    </SidebarMenuItem>
  );
}

export interface AppShellSidebarProps {
  /** the slot under the menu (the cart widget goes there) */
  footer?: React.ReactNode;
  /** the Onboarding Tour entry; the onboarding feature owns the tour */
  onRestartOnboarding: () => void;
}

/** The app's navigation. */
export function AppShellSidebar({ footer, onRestartOnboarding }: AppShellSidebarProps) {
  const close = useCloseOnMobile();
  const pathname = usePathname();
  // The footer's slot holds links of its own (the cart widget's Go to Checkout, in a popover this
  // component does not render), so any change of page also closes the sheet.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on a change of page, not of `close`
  React.useEffect(() => {
    close();
  }, [pathname]);
  return (
    <Sidebar id={SIDEBAR_ID}>
      <SidebarHeader className="h-14 justify-center border-b border-sidebar-border">
        <AppShellLogo onNavigate={close} />
      </SidebarHeader>
      <nav aria-label="Main" className="flex min-h-0 flex-1 flex-col">
        <SidebarContent>
          <SidebarGroup>
            <SidebarGroupLabel id="sidebar-platform">Platform</SidebarGroupLabel>
            <SidebarMenu aria-labelledby="sidebar-platform">
              {PLATFORM_NAV.map((entry) =>
                isNavGroup(entry) ? (
                  <NavGroupItem key={entry.title} group={entry} />
                ) : (
                  <NavLinkItem key={entry.to} item={entry} />
                ),
              )}
            </SidebarMenu>
          </SidebarGroup>
          <SidebarGroup>
            <SidebarGroupLabel id="sidebar-useful-links">Useful Links</SidebarGroupLabel>
            <SidebarMenu aria-labelledby="sidebar-useful-links">
              <SidebarMenuItem>
                <SidebarMenuButton
                  tooltip="Onboarding Tour"
                  onClick={() => {
                    close();
                    onRestartOnboarding();
                  }}
                >
                  <CompassIcon aria-hidden />
                  <span>Onboarding Tour</span>
                </SidebarMenuButton>
              </SidebarMenuItem>
              <ExternalItem title="Docs" href={env.docsUrl} icon={BookOpenIcon} />
              <ExternalItem title="Tutorials" href={env.tutorialsUrl} icon={GraduationCapIcon} />
            </SidebarMenu>
          </SidebarGroup>
        </SidebarContent>
      </nav>
      <SidebarFooter data-slot="sidebar-cart-slot">{footer}</SidebarFooter>
    </Sidebar>
  );
}
