import { Link, useRouter, useRouterState } from '@tanstack/react-router';
import { Fragment } from 'react';
import {
  Breadcrumb,
  BreadcrumbEllipsis,
  BreadcrumbItem,
  BreadcrumbLink,
  BreadcrumbList,
  BreadcrumbPage,
  BreadcrumbSeparator,
} from '@/components/ui/breadcrumb';
import { onDemand, useStandInTrigger } from '@/lib/on-demand';
import {
  type Crumb,
  collapseCrumbs,
  crumbsFromPath,
  ellipsisClass,
  ellipsisLabel,
} from './app-shell-breadcrumb-segments';

/** A segment such as /dashboard/subscriptions has no page of its own; it is shown as text, not a link. */
function useHasPage(): (href: string) => boolean {
  const router = useRouter();
  return (href) => Object.hasOwn(router.routesByPath, href);
}

function CrumbLink({ crumb, hasPage }: { crumb: Crumb; hasPage: boolean }) {
  if (!hasPage) return <span>{crumb.label}</span>;
  return (
    <BreadcrumbLink asChild>
      {/* The path comes from the address bar, so it cannot be checked against the route types. */}
      <Link to={crumb.href as '/'} activeOptions={{ exact: true }} activeProps={{ 'aria-current': undefined }}>
        {crumb.label}
      </Link>
    </BreadcrumbLink>
  );
}

/** The folded levels' menu (Radix's dropdown menu) is fetched when its button is pointed at, focused or pressed. */
const breadcrumbMenu = onDemand(() => import('./app-shell-breadcrumb-menu'));

function BreadcrumbMiddle({ middle, hasPage }: { middle: Crumb[]; hasPage: (href: string) => boolean }) {
  const loaded = breadcrumbMenu.useModule();
  const standIn = useStandInTrigger(breadcrumbMenu, 'pointerdown');
  if (loaded) return <loaded.BreadcrumbMenu middle={middle} hasPage={hasPage} arrival={standIn.arrival()} />;
  // The same button, as the menu's trigger renders it while closed.
  return (
    <button
      type="button"
      className={ellipsisClass}
      aria-label={ellipsisLabel(middle.length)}
      aria-haspopup="menu"
      aria-expanded={false}
      data-state="closed"
      {...standIn.handlers}
    >
      <BreadcrumbEllipsis className="size-7" />
    </button>
  );
}

/** Path segments as a trail; on small screens those between the first and the last fold into a menu. */
export function AppShellBreadcrumb() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const hasPage = useHasPage();
  const { first, middle, last } = collapseCrumbs(crumbsFromPath(pathname));
  if (!last) return null;

  return (
    <Breadcrumb className="min-w-0">
      <BreadcrumbList className="flex-nowrap">
        {first && (
          <>
            <BreadcrumbItem className="shrink-0">
              <CrumbLink crumb={first} hasPage={hasPage(first.href)} />
            </BreadcrumbItem>
            <BreadcrumbSeparator />
          </>
        )}
        {middle.length > 0 && (
          <>
            <BreadcrumbItem className="md:hidden">
              <BreadcrumbMiddle middle={middle} hasPage={hasPage} />
            </BreadcrumbItem>
            <BreadcrumbSeparator className="md:hidden" />
            {middle.map((crumb) => (
              <Fragment key={crumb.href}>
                <BreadcrumbItem className="hidden md:inline-flex">
                  <CrumbLink crumb={crumb} hasPage={hasPage(crumb.href)} />
                </BreadcrumbItem>
                <BreadcrumbSeparator className="hidden md:block" />
              </Fragment>
            ))}
          </>
        )}
        <BreadcrumbItem className="min-w-0">
          <BreadcrumbPage className="truncate">{last.label}</BreadcrumbPage>
        </BreadcrumbItem>
      </BreadcrumbList>
    </Breadcrumb>
  );
}
