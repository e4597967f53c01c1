import { Link, useNavigate } from '@tanstack/react-router';
import { CreditCardIcon, LifeBuoyIcon, TriangleAlertIcon } from 'lucide-react';
import * as React from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import {
  Breadcrumb,
  BreadcrumbItem,
  BreadcrumbLink,
  BreadcrumbList,
  BreadcrumbPage,
  BreadcrumbSeparator,
} from '@/components/ui/breadcrumb';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { ERROR_TOAST_MS } from '@/config/constants';
import { formatShortDate } from '@/lib/dates';
import { useLicenses } from '@/lib/robot-licenses';
import { useRobots } from '@/lib/robots';
import { toast } from '@/lib/toast';
import { useBillingPortal } from '../api/subscriptions-billing-portal';
import { useSubscription } from '../api/subscriptions-get-subscription';
import { type ItemRow, itemRows, licensesById } from '../subscriptions-rows';
import { displayStatus, epochSecondsToMs, viewRobotTarget } from '../subscriptions-table';
import { SUBSCRIPTIONS_TEXT } from '../subscriptions-text';
import { StatusBadge } from './subscriptions-status-badge';

function PageBreadcrumb({ subscriptionId }: { subscriptionId: string }) {
  const crumbs = [
    { label: 'Home', to: '/dashboard' },
    { label: 'Profile', to: '/dashboard/user/profile' },
    { label: 'Subscriptions', to: '/dashboard/subscriptions/manage' },
  ] as const;
  return (
    <Breadcrumb aria-label="Subscription breadcrumb">
      <BreadcrumbList>
        {crumbs.map((crumb) => (
          <React.Fragment key={crumb.to}>
            <BreadcrumbItem>
              <BreadcrumbLink asChild>
                <Link to={crumb.to} activeOptions={{ exact: true }}>
                  {crumb.label}
                </Link>
              </BreadcrumbLink>
            </BreadcrumbItem>
            <BreadcrumbSeparator />
          </React.Fragment>
        ))}
        <BreadcrumbItem className="min-w-0">
          <BreadcrumbPage className="truncate">{subscriptionId}</BreadcrumbPage>
        </BreadcrumbItem>
      </BreadcrumbList>
    </Breadcrumb>
  );
}

function ItemsTable({ rows }: { rows: ItemRow[] }) {
  const navigate = useNavigate();
  const view = (row: ItemRow) => {
    const target = viewRobotTarget(row.robotId, 'itemsTable');
    if ('href' in target) void navigate({ to: '/dashboard/robot/manager/$robotID', params: { robotID: row.robotId } });
    else toast.error(target.toast.title, { description: target.toast.description, duration: ERROR_TOAST_MS });
  };
  return (
    <div className="rounded-lg border">
      <Table aria-label={SUBSCRIPTIONS_TEXT.items}>
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead>SKU</TableHead>
            <TableHead>ID</TableHead>
            <TableHead>Robot Name / Pairing Code</TableHead>
            <TableHead>Controls</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.key} data-testid="item-row">
              <TableCell>{row.sku}</TableCell>
              <TableCell className="font-mono text-xs">{row.id}</TableCell>
              <TableCell>{row.robot || <span className="text-muted-foreground">—</span>}</TableCell>
              <TableCell>
                {row.viewable && (
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => view(row)}
                    aria-label={`View ${row.robot || row.id}`}
                  >
                    {SUBSCRIPTIONS_TEXT.view}
                  </Button>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

export interface ManageSubscriptionScreenProps {
  email: string;
  subscriptionId: string;
}

/** The Manage Subscription Page (spec/001 §2): a provider subscription's details and items. */
export function ManageSubscriptionScreen({ email, subscriptionId }: ManageSubscriptionScreenProps) {
  const subscription = useSubscription(email, subscriptionId);
  const licenses = useLicenses(email);
  const portal = useBillingPortal(email);
  const licenseMap = React.useMemo(() => licensesById(licenses.data?.robot_licenses ?? []), [licenses.data]);
  const refs = React.useMemo(
    () =>
      licenses.data?.robot_licenses
        .filter((l) => l.robot_id !== '')
        .map((l) => ({ robot_id: l.robot_id, asset_id: l.asset_id })),
    [licenses.data],
  );
  const robots = useRobots(email, 'paired', refs);
  const sub = subscription.data;
  const rows = React.useMemo(
    () => (sub ? itemRows(sub, licenseMap, robots.data ?? []) : []),
    [sub, licenseMap, robots.data],
  );

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        <PageBreadcrumb subscriptionId={subscriptionId} />
        <h1 className="text-2xl font-semibold tracking-tight">{SUBSCRIPTIONS_TEXT.manageTitle}</h1>
      </div>

      {subscription.isPending ? (
        <div role="status">
          <Skeleton className="h-48 rounded-xl" />
          <span className="sr-only">Loading subscription...</span>
        </div>
      ) : subscription.isError ? (
        <Alert variant="destructive">
          <TriangleAlertIcon aria-hidden />
          <AlertTitle>{SUBSCRIPTIONS_TEXT.fetchError}</AlertTitle>
          <AlertDescription>
            <p>{subscription.error.message}</p>
            <Button asChild variant="outline" size="sm" className="mt-2">
              <Link to="/dashboard">{SUBSCRIPTIONS_TEXT.returnToDashboard}</Link>
            </Button>
          </AlertDescription>
        </Alert>
      ) : !sub ? (
        <div className="flex flex-col items-start gap-3 rounded-xl border border-dashed p-6">
          <p className="text-muted-foreground">{SUBSCRIPTIONS_TEXT.notFound}</p>
          <Button asChild variant="outline" size="sm">
            <Link to="/dashboard">{SUBSCRIPTIONS_TEXT.returnToDashboard}</Link>
          </Button>
        </div>
      ) : (
        <>
          <Card role="region" aria-labelledby="subscription-details-title">
            <CardHeader>
              <CardTitle id="subscription-details-title">{SUBSCRIPTIONS_TEXT.details}</CardTitle>
            </CardHeader>
            <CardContent>
              <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[auto_1fr]">
                <dt className="text-muted-foreground">Duration</dt>
                <dd data-testid="subscription-duration">
                  {formatShortDate(epochSecondsToMs(sub.starts_at))} - {formatShortDate(epochSecondsToMs(sub.ends_at))}
                </dd>
                <dt className="text-muted-foreground">Subscription ID</dt>
                <dd className="break-all font-mono text-xs">{sub.subscription_id}</dd>
                <dt className="text-muted-foreground">Status</dt>
                <dd className="flex flex-wrap items-center gap-2">
                  <StatusBadge status={sub.status} />
                  {sub.cancel_at_period_end && displayStatus(sub.status) === 'Active' && (
                    <span className="text-muted-foreground" data-testid="cancels-on">
                      {SUBSCRIPTIONS_TEXT.cancelsOn} {formatShortDate(epochSecondsToMs(sub.ends_at))}
                    </span>
                  )}
                </dd>
              </dl>
            </CardContent>
            <CardFooter>
              <Button onClick={portal.open} disabled={portal.busy} aria-busy={portal.busy || undefined}>
                <CreditCardIcon aria-hidden />
                {SUBSCRIPTIONS_TEXT.updateOrCancel}
              </Button>
            </CardFooter>
          </Card>

          <section aria-labelledby="subscription-items-title" className="flex flex-col gap-3">
            <h2 id="subscription-items-title" className="text-lg font-semibold">
              {SUBSCRIPTIONS_TEXT.items}
            </h2>
            <ItemsTable rows={rows} />
            <p className="flex items-center gap-2 text-sm text-muted-foreground">
              <LifeBuoyIcon aria-hidden className="size-4" />
              Something not right with this subscription?
              <Link to="/dashboard/support" className="font-medium text-primary underline underline-offset-4">
                Contact support
              </Link>
            </p>
          </section>
        </>
      )}
    </div>
  );
}
