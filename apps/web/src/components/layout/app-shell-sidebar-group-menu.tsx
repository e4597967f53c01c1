import { Link } from '@tanstack/react-router';
import * as React from 'react';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { useArrivalFocus } from '@/lib/on-demand';
import type { NavGroup } from './app-shell-nav';
import { navTo, SidebarGroupButton } from './app-shell-sidebar-group-button';

/**
 * A group of the collapsed sidebar: its pages in a menu beside its icon. Fetched on first use by
 * app-shell-sidebar.tsx. `defaultOpen`: its button was pressed before this code arrived;
 * `focusTrigger`: it had focus.
 */
export function SidebarGroupMenu({
  group,
  childActive,
  defaultOpen,
  focusTrigger,
  openedByKeyboard,
}: {
  group: NavGroup;
  childActive: boolean;
  defaultOpen: boolean;
  focusTrigger: boolean;
  /** the stand-in was pressed with a key: the first item takes the focus (useArrivalFocus) */
  openedByKeyboard: boolean;
}) {
  const trigger = React.useRef<HTMLButtonElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when this replaces the stand-in
  React.useEffect(() => {
    if (focusTrigger && !defaultOpen) trigger.current?.focus();
  }, []);
  const arrivalFocus = useArrivalFocus(openedByKeyboard);
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <SidebarGroupButton group={group} childActive={childActive} ref={trigger} />
      </DropdownMenuTrigger>
      <DropdownMenuContent onFocus={arrivalFocus} side="right" align="start" className="min-w-48">
        <DropdownMenuLabel>{group.title}</DropdownMenuLabel>
        {group.items.map((item) => (
          <DropdownMenuItem key={item.to} asChild>
            <Link to={navTo(item.to)}>{item.title}</Link>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
