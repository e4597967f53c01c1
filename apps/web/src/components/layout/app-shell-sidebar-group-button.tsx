import type * as React from 'react';
import { SidebarMenuButton } from '@/components/ui/sidebar';
import type { NavGroup, NavPath } from './app-shell-nav';

/**
 * The Flexible Licenses page of spec/001 is built in another workstream; until its route exists,
 * the dashboard's catch-all sends that link to the dashboard. NavPath is the closed list of the
 * spec's menu, so this widening cannot admit a typo.
 */
export function navTo(path: NavPath): '/dashboard' {
  return path as '/dashboard';
}

/** A group's button in the collapsed sidebar, shared by its stand-in and its menu's trigger. */
export function SidebarGroupButton({
  group,
  childActive,
  ...props
}: React.ComponentProps<typeof SidebarMenuButton> & { group: NavGroup; childActive: boolean }) {
  const Icon = group.icon;
  return (
    <SidebarMenuButton tooltip={group.title} isActive={childActive} {...props}>
      <Icon aria-hidden />
      <span>{group.title}</span>
    </SidebarMenuButton>
  );
}
