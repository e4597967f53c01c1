import { isClientError } from '@portal/client';
import { canPurchaseTime, type DialSummary } from '@portal/contract';
import { Link } from '@tanstack/react-router';
import { ArrowRightIcon, ChartColumnIcon, InfinityIcon, SparklesIcon, TriangleAlertIcon } from 'lucide-react';
import { Alert, AlertTitle } from '@/components/ui/alert';
import { Skeleton } from '@/components/ui/skeleton';
import { useUserTime } from '@/lib/user-time';
import { DIAL_PANEL_TEXT, dialPanelState } from '../dial-time-panel-state';
import { formatPercent } from '../dial-time-pie';
import { dialTimeTier } from '../dial-time-tier';
import { BuyMoreTime } from './dial-time-buy-more-time';
import { POOL_STYLE, type Pool, PoolPie } from './dial-time-pie';

const minutes = (n: number) => `${n.toLocaleString('en-GB')} ${n === 1 ? 'minute' : 'minutes'}`;

/** One pool: its own pie, the percentage remaining as the label, and the minutes behind it. */
function PoolFigure({ pool, summary }: { pool: Pool; summary: DialSummary }) {
  const p = summary[pool];
  return (
    <li className="flex items-center gap-3">
      <PoolPie pool={pool} summary={summary} />
      <span className="flex min-w-0 flex-col text-sm">
        <span className="font-medium">{POOL_STYLE[pool].label}</span>
        <span>
          <span className="text-lg font-semibold tabular-nums">{formatPercent(p.percentRemaining)}</span> remaining
        </span>
        <span className="text-xs text-muted-foreground">
          {minutes(p.remaining)} of {minutes(p.total)}
        </span>
      </span>
    </li>
  );
}

/** The "Upgrade to Pro" box for Lite users: the whole box links to the plans. */
function UpgradeBox() {
  return (
    <Link
      to="/dashboard/subscriptions/manage"
      className="flex flex-col gap-1 rounded-lg border border-primary/30 bg-primary/5 p-4 transition-colors hover:bg-primary/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
    >
      <span className="flex items-center gap-2 font-semibold text-primary">
        <SparklesIcon aria-hidden className="size-4" />
        {DIAL_PANEL_TEXT.upgrade}
        <ArrowRightIcon aria-hidden className="ml-auto size-4" />
      </span>
      <span className="text-sm text-muted-foreground">
        Pro gives you infinite dial time: dial any robot without counting minutes.
      </span>
    </Link>
  );
}

/** Where the dial time went: the history screen (issue 15), a route of its own loaded on demand. */
function ViewUsageLink() {
  return (
    <Link
      to="/dashboard/usage"
      className="inline-flex w-fit items-center gap-1.5 rounded-sm text-sm font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
    >
      <ChartColumnIcon aria-hidden className="size-4" />
      {DIAL_PANEL_TEXT.viewUsage}
    </Link>
  );
}

export interface DialTimePanelProps {
  email: string;
  userId: string;
}

/** The dial time panel of spec/001 §2: loading, error, Pro/infinite and normal states. */
export function DialTimePanel({ email, userId }: DialTimePanelProps) {
  const query = useUserTime(email, userId);
  const tier = dialTimeTier(query.data);
  const state = dialPanelState({
    loading: query.isPending,
    unauthenticated: !email || isClientError(query.error, 'unauthenticated'),
    // A failed background refresh keeps the numbers already shown.
    error: query.data ? undefined : query.error,
    tier,
    userTime: query.data,
  });
  // Pro users cannot buy time (spec/001 §6): no Buy More Time for them.
  const buyMoreTime = canPurchaseTime(tier);
  const nextAllocationDays = query.data?.days_until_next_allocation ?? 0;

  return (
    <section
      aria-label="Dial time"
      className="rounded-xl border bg-card p-4 text-card-foreground shadow-sm sm:p-5"
      data-testid="dial-time-panel"
    >
      {state.kind === 'loading' && (
        <div role="status" className="flex items-center gap-4">
          <Skeleton className="size-24 rounded-full" />
          <div className="flex flex-1 flex-col gap-2">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="h-4 w-56" />
          </div>
          <span className="sr-only">Loading dial time...</span>
        </div>
      )}
      {state.kind === 'error' && (
        <Alert variant="destructive">
          <TriangleAlertIcon />
          <AlertTitle>{state.message}</AlertTitle>
        </Alert>
      )}
      {state.kind === 'infinite' && (
        <div className="flex flex-col gap-3">
          <div className="flex h-10 items-center justify-center gap-2 rounded-full bg-gradient-to-r from-primary to-violet-500 px-4 font-semibold text-primary-foreground">
            <InfinityIcon aria-hidden className="size-5" />
            {DIAL_PANEL_TEXT.infiniteBar}
          </div>
          <p className="text-sm text-muted-foreground">{DIAL_PANEL_TEXT.infinite}</p>
          <ViewUsageLink />
        </div>
      )}
      {state.kind === 'normal' && (
        <div className="flex flex-col gap-4">
          {query.data?.warning_message && (
            <p role="status" className="flex items-center gap-2 text-sm font-medium">
              <TriangleAlertIcon aria-hidden className="size-4 shrink-0 text-amber-600 dark:text-amber-400" />
              {query.data.warning_message}
            </p>
          )}
          <div className="flex flex-col gap-5 md:flex-row md:items-center">
            <div className="flex min-w-0 flex-col gap-3">
              <p>
                <span className="block text-sm text-muted-foreground">Remaining dial time</span>
                <span className="text-2xl font-semibold" data-testid="remaining-minutes">
                  {minutes(state.summary.remaining)}
                </span>
              </p>
              {/* One pie per pool, each against its own total: the two percentages do not add up. */}
              <ul aria-label="Dial time by pool" className="flex flex-wrap gap-x-8 gap-y-3">
                <PoolFigure pool="durable" summary={state.summary} />
                <PoolFigure pool="perishable" summary={state.summary} />
              </ul>
              {nextAllocationDays > 0 && (
                <p className="text-xs text-muted-foreground">
                  Your yearly allocation renews in {nextAllocationDays} {nextAllocationDays === 1 ? 'day' : 'days'}.
                </p>
              )}
              <ViewUsageLink />
            </div>
            {(state.showUpgrade || buyMoreTime) && (
              <div className="flex flex-col gap-3 md:ml-auto md:max-w-xs">
                {buyMoreTime && <BuyMoreTime email={email} />}
                {state.showUpgrade && <UpgradeBox />}
              </div>
            )}
          </div>
        </div>
      )}
    </section>
  );
}
