import { Link } from '@tanstack/react-router';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { type Arrival, useMenuArrival } from '@/lib/on-demand';
import type { NavGroup } from './app-shell-nav';
import { navTo, SidebarGroupButton } from './app-shell-sidebar-group-button';

/**
 * A group of the collapsed sidebar: its pages in a menu beside its icon. Fetched on first use by
 * app-shell-sidebar.tsx; `arrival`: how its stand-in button was left (lib/on-demand.ts).
 */
export function SidebarGroupMenu({
  group,
  childActive,
  arrival,
}: {
  group: NavGroup;
  childActive: boolean;
  arrival: Arrival;
}) {
  const { trigger, onContentFocus } = useMenuArrival(arrival);
  return (
    <DropdownMenu defaultOpen={arrival.open}>
      <DropdownMenuTrigger asChild>
        <SidebarGroupButton group={group} childActive={childActive} ref={trigger} />
      </DropdownMenuTrigger>
      <DropdownMenuContent onFocus={onContentFocus} side="right" align="start" className="min-w-48">
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
