import { type AdminOverviewAnswer, formatPrice } from '@portal/contract';
import { Link } from '@tanstack/react-router';
import { Loader2Icon, RefreshCwIcon } from 'lucide-react';
import type * as React from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatInstant, PERMISSION_LABELS, ROLE_LABELS, ROLE_SUMMARIES } from '../admin-text';
import type { StaffMe } from '../api/admin-me';
import { useOverview } from '../api/admin-overview';
import { consoleLink, consoleNavFor } from './admin-frame';
import { AdminLoadError } from './admin-load-error';

/** What support sees where the revenue would be (the server leaves the figure out for its role). */
export const REVENUE_HIDDEN = 'Recurring revenue is shown to finance and admin roles only.';

const count = (n: number) => n.toLocaleString('en-GB');

/** One figure of the overview: a title, the number, and what it is made of. */
function Figure({
  title,
  value,
  testId,
  children,
}: {
  title: string;
  value?: React.ReactNode;
  testId: string;
  children?: React.ReactNode;
}) {
  return (
    <Card className="gap-2 py-4" data-testid={testId}>
      <CardHeader className="px-4">
        <CardTitle className="text-sm font-medium text-muted-foreground">{title}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-1 px-4">
        {value !== undefined && <p className="text-2xl font-semibold tabular-nums">{value}</p>}
        {children && <div className="text-sm text-muted-foreground">{children}</div>}
      </CardContent>
    </Card>
  );
}

function Figures({ figures }: { figures: AdminOverviewAnswer }) {
  const { accounts, plans_by_tier, support_open, failed_renewals, outbox, webhooks } = figures;
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      <Figure title="Customer accounts" value={count(accounts.total)} testId="overview-accounts">
        {count(accounts.new_this_week)} new in the last 7 days
      </Figure>
      <Figure title="Active plans by tier" testId="overview-plans">
        {plans_by_tier.length ? (
          <ul className="grid gap-1 text-foreground">
            {plans_by_tier.map((tier) => (
              <li key={tier.tier} className="flex flex-wrap justify-between gap-x-3">
                <span className="font-medium">{tier.tier}</span>
                <span className="tabular-nums">
                  {count(tier.paid)} paid, {count(tier.granted)} granted
                </span>
              </li>
            ))}
          </ul>
        ) : (
          'No active plans.'
        )}
      </Figure>
      <Figure title="Recurring revenue a month" testId="overview-revenue">
        {!figures.revenue_visible ? (
          REVENUE_HIDDEN
        ) : figures.recurring_revenue?.length ? (
          <ul className="grid gap-1 text-foreground">
            {figures.recurring_revenue.map((r) => (
              <li key={r.currency} className="grid">
                <span className="text-2xl font-semibold tabular-nums">{formatPrice(r.monthly_amount, r.currency)}</span>
                <span className="text-muted-foreground">
                  {r.currency.toUpperCase()}: {count(r.plans)} plans, {count(r.drivers)} robot drivers
                </span>
              </li>
            ))}
          </ul>
        ) : (
          'No paid plans or drivers are active.'
        )}
        {figures.revenue_visible && (figures.unpriced_subscriptions ?? 0) > 0 && (
          <p className="mt-1">
            {count(figures.unpriced_subscriptions ?? 0)} active subscriptions have a price the catalogue does not know:
            they are not counted.
          </p>
        )}
      </Figure>
      <Figure title="Robots online now" value={count(figures.robots_online)} testId="overview-robots">
        Reported available by their hub in the last 5 minutes
      </Figure>
      <Figure title="Open support requests" value={count(support_open.total)} testId="overview-support">
        {count(support_open.new)} new, {count(support_open.open)} open, {count(support_open.waiting)} waiting on the
        customer
      </Figure>
      <Figure
        title="Failed renewals"
        value={count(failed_renewals.plans + failed_renewals.drivers)}
        testId="overview-failed-renewals"
      >
        {count(failed_renewals.plans)} plans, {count(failed_renewals.drivers)} robot drivers (the provider still
        retries)
      </Figure>
      <Figure title="Open disputes" value={count(figures.open_disputes)} testId="overview-disputes" />
      <Figure title="Outbox" value={count(outbox.due)} testId="overview-outbox">
        due now, {count(outbox.failing)} failing
      </Figure>
      <Figure title="Stripe webhooks" value={count(webhooks.received_last_day)} testId="overview-webhooks">
        {webhooks.last_received_at
          ? `received in the last 24 hours; the last at ${formatInstant(webhooks.last_received_at)}`
          : 'received in the last 24 hours; none has ever arrived'}
      </Figure>
    </div>
  );
}

/** The signed-in staff member's role, what it may do and the screens it opens, folded away. */
function RoleSummary({ me }: { me: StaffMe }) {
  const screens = consoleNavFor(me).filter((item) => item.to !== '/admin');
  return (
    <section aria-labelledby="overview-role-title" className="grid gap-2 rounded-md border p-4 text-sm">
      <h2 id="overview-role-title" className="font-semibold">
        Your role: {ROLE_LABELS[me.role]}
      </h2>
      <p className="text-muted-foreground">{ROLE_SUMMARIES[me.role]}</p>
      {screens.length > 0 && (
        <p>
          Screens:{' '}
          {screens.map((item, i) => (
            <span key={item.to}>
              {i > 0 && ', '}
              <Link {...consoleLink(item.to)} className="text-primary underline underline-offset-4">
                {item.label}
              </Link>
            </span>
          ))}
        </p>
      )}
      <details>
        <summary className="cursor-pointer text-primary underline-offset-4 hover:underline">
          What your role may do
        </summary>
        <ul className="mt-2 grid list-disc gap-1 pl-5" aria-label="What your role may do">
          {me.permissions.map((permission) => (
            <li key={permission}>{PERMISSION_LABELS[permission]}</li>
          ))}
        </ul>
      </details>
    </section>
  );
}

/** /admin: the business at a glance (GetOverview), then who is signed in and what the role may do. */
export function AdminOverview({ me }: { me: StaffMe }) {
  const overview = useOverview();
  return (
    <>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">Back office</h1>
          <p className="text-muted-foreground">
            Signed in as {me.email || me.name}, {ROLE_LABELS[me.role].toLowerCase()}.
            {me.session_expires_at > 0 &&
              ` This staff session ends at ${formatInstant(me.session_expires_at)} at the latest.`}
          </p>
        </div>
        <div className="flex items-center gap-3">
          {overview.data && (
            <p className="text-sm text-muted-foreground" data-testid="overview-as-of">
              As of {formatInstant(overview.data.as_of)}
            </p>
          )}
          <Button
            variant="outline"
            size="sm"
            onClick={() => void overview.refetch()}
            disabled={overview.isFetching}
            aria-busy={overview.isFetching || undefined}
          >
            {overview.isFetching ? <Loader2Icon className="animate-spin" aria-hidden /> : <RefreshCwIcon aria-hidden />}
            Refresh
          </Button>
        </div>
      </div>
      <section aria-label="The business now" className="grid min-w-0 gap-3">
        {overview.data ? (
          <Figures figures={overview.data} />
        ) : overview.isError ? (
          <AdminLoadError
            title="The overview could not be loaded"
            error={overview.error}
            onRetry={() => void overview.refetch()}
          />
        ) : (
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" role="status" aria-label="Loading the overview">
            {Array.from({ length: 6 }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders with nothing else to tell them apart
              <Skeleton key={i} className="h-28 w-full" />
            ))}
          </div>
        )}
      </section>
      <RoleSummary me={me} />
    </>
  );
}
