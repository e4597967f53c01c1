import { Link } from '@tanstack/react-router';
import { BreadcrumbEllipsis } from '@/components/ui/breadcrumb';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { type Arrival, useMenuArrival } from '@/lib/on-demand';
import { type Crumb, ellipsisClass, ellipsisLabel } from './app-shell-breadcrumb-segments';

/**
 * The breadcrumb's folded levels on small screens, fetched on first use by app-shell-breadcrumb.tsx.
 * `arrival`: how its stand-in button was left (lib/on-demand.ts).
 */
export function BreadcrumbMenu({
  middle,
  hasPage,
  arrival,
}: {
  middle: Crumb[];
  hasPage: (href: string) => boolean;
  arrival: Arrival;
}) {
  const { trigger, onContentFocus } = useMenuArrival(arrival);
  return (
    <DropdownMenu defaultOpen={arrival.open}>
      <DropdownMenuTrigger ref={trigger} className={ellipsisClass} aria-label={ellipsisLabel(middle.length)}>
        <BreadcrumbEllipsis className="size-7" />
      </DropdownMenuTrigger>
      <DropdownMenuContent onFocus={onContentFocus} align="start">
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
