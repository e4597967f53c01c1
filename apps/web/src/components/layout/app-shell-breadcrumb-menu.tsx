import { Link } from '@tanstack/react-router';
import * as React from 'react';
import { BreadcrumbEllipsis } from '@/components/ui/breadcrumb';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { useArrivalFocus } from '@/lib/on-demand';
import { type Crumb, ellipsisClass, ellipsisLabel } from './app-shell-breadcrumb-segments';

/**
 * The breadcrumb's folded levels on small screens, fetched on first use by app-shell-breadcrumb.tsx.
 * `defaultOpen`: its button was pressed before this code arrived; `focusTrigger`: it had focus.
 */
export function BreadcrumbMenu({
  middle,
  hasPage,
  defaultOpen,
  focusTrigger,
  openedByKeyboard,
}: {
  middle: Crumb[];
  hasPage: (href: string) => boolean;
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
      <DropdownMenuTrigger ref={trigger} className={ellipsisClass} aria-label={ellipsisLabel(middle.length)}>
        <BreadcrumbEllipsis className="size-7" />
      </DropdownMenuTrigger>
      <DropdownMenuContent onFocus={arrivalFocus} align="start">
        {middle.map((crumb) =>
          hasPage(crumb.href) ? (
            <DropdownMenuItem key={crumb.href} asChild>
              <Link to={crumb.href as '/'}>{crumb.label}</Link>
            </DropdownMenuItem>
          ) : (
            <DropdownMenuItem key={crumb.href} disabled>
              {crumb.label}
            </DropdownMenuItem>
          ),
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
