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
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { type Crumb, collapseCrumbs, crumbsFromPath } from './app-shell-breadcrumb-segments';

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
              <DropdownMenu>
                <DropdownMenuTrigger
                  className="flex items-center rounded-md hover:bg-accent"
                  aria-label={`Show ${middle.length === 1 ? '1 more level' : `${middle.length} more levels`}`}
                >
                  <BreadcrumbEllipsis className="size-7" />
                </DropdownMenuTrigger>
                <DropdownMenuContent align="start">
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
