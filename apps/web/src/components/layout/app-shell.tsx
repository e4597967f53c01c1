import type * as React from 'react';
import { Separator } from '@/components/ui/separator';
import { SidebarInset, SidebarProvider, SidebarTrigger } from '@/components/ui/sidebar';
import { AppShellBreadcrumb } from './app-shell-breadcrumb';
import { AppShellSidebar } from './app-shell-sidebar';
import { UserMenu } from './user-menu';

export interface AppShellProps {
  children: React.ReactNode;
  /** Rendered at the bottom of the sidebar; the cart widget goes here. */
  sidebarFooter?: React.ReactNode;
  /** The sidebar's Onboarding Tour entry. */
  onRestartOnboarding: () => void;
  /** Dialogs that belong to the whole signed-in area (the onboarding tour). */
  overlays?: React.ReactNode;
  /** Shown in the page's flow above every page (the cookie notice), so it covers no control. */
  notice?: React.ReactNode;
}

/** The signed-in frame (spec/000 §2): sidebar, top bar with breadcrumb and user menu, and the page. */
export function AppShell({ children, sidebarFooter, onRestartOnboarding, overlays, notice }: AppShellProps) {
  return (
    <SidebarProvider>
      <a
        href="#main-content"
        className="sr-only z-50 rounded-md bg-background px-3 py-2 text-sm font-medium shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <AppShellSidebar footer={sidebarFooter} onRestartOnboarding={onRestartOnboarding} />
      <SidebarInset>
        <header className="sticky top-0 z-20 flex h-14 shrink-0 items-center gap-2 border-b bg-background/95 px-3 backdrop-blur supports-[backdrop-filter]:bg-background/80 md:px-4">
          <SidebarTrigger />
          <Separator orientation="vertical" className="h-5!" />
          <div className="min-w-0 flex-1">
            <AppShellBreadcrumb />
          </div>
          <UserMenu />
        </header>
        <main id="main-content" tabIndex={-1} className="flex-1 p-4 focus:outline-none md:p-6">
          {notice ? <div className="mb-4 md:mb-6">{notice}</div> : null}
          {children}
        </main>
      </SidebarInset>
      {overlays}
    </SidebarProvider>
  );
}
