import { isClientError } from '@portal/client';
import { USAGE_RANGES_DAYS, type UsageHistory, type UsageRangeDays } from '@portal/contract';
import { ChartColumnIcon, DownloadIcon, RefreshCwIcon, TableIcon, TriangleAlertIcon } from 'lucide-react';
import * as React from 'react';
import { Alert, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/utils';
import { useUsageHistory } from '../api/usage-get-history';
import { seriesColor } from '../usage-colors';
import { usageCsv, usageCsvName } from '../usage-csv';
import { downloadText } from '../usage-download';
import { eventLabel, formatDay, formatMinutes, robotLabel, usageRows } from '../usage-series';
import { USAGE_TEXT } from '../usage-text';
import { UsageChart } from './usage-chart';

function RangePicker({ days, onChange }: { days: UsageRangeDays; onChange: (days: UsageRangeDays) => void }) {
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="sr-only">{USAGE_TEXT.rangeLabel}</legend>
      <div className="inline-flex rounded-md border bg-background p-0.5 shadow-sm">
        {USAGE_RANGES_DAYS.map((d) => (
          <Button
            key={d}
            size="sm"
            variant={d === days ? 'default' : 'ghost'}
            aria-pressed={d === days}
            onClick={() => onChange(d)}
          >
            {USAGE_TEXT.range(d)}
          </Button>
        ))}
      </div>
    </fieldset>
  );
}

function Totals({ history }: { history: UsageHistory }) {
  return (
    <section aria-labelledby="usage-totals-title" className="flex flex-col gap-3">
      <h2 id="usage-totals-title" className="text-lg font-semibold">
        {USAGE_TEXT.totalsTitle}
      </h2>
      <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2 xl:grid-cols-3" data-testid="usage-totals">
        {history.robots.map((robot, i) => (
          <li
            key={robot.robot_id}
            className="flex min-w-0 items-center gap-3 rounded-lg border bg-card p-3 text-card-foreground shadow-sm"
          >
            <span aria-hidden className="size-3 shrink-0 rounded-sm" style={{ background: seriesColor(i) }} />
            <span className="flex min-w-0 flex-col">
              <span className="truncate font-medium" title={robotLabel(robot)}>
                {robotLabel(robot)}
              </span>
              {robot.owned && robot.model && <span className="text-xs text-muted-foreground">{robot.model}</span>}
            </span>
            <span className="ml-auto whitespace-nowrap font-semibold tabular-nums">
              {formatMinutes(robot.total_minutes)}
            </span>
          </li>
        ))}
      </ul>
      <p className="text-sm">
        {USAGE_TEXT.total}: <span className="font-semibold tabular-nums">{formatMinutes(history.total_minutes)}</span>
      </p>
    </section>
  );
}

/**
 * A table that scrolls sideways when shown; while hidden for screen readers only it must not be a
 * scroll region (axe: a scrollable region needs keyboard access), so it is a plain table then.
 */
/**
 * One of the table view's two tables: a caption, then Day, `middle` and Minutes columns. Hidden
 * tables stay in the accessibility tree for screen readers (the wrapper is `sr-only`).
 */
function DayTable({
  shown,
  id,
  title,
  middle,
  children,
}: {
  shown: boolean;
  id: string;
  title: string;
  middle: string;
  children: React.ReactNode;
}) {
  return (
    <div className={shown ? 'relative w-full overflow-x-auto' : undefined}>
      <table className="w-full caption-top text-sm" aria-labelledby={id}>
        <caption id={id} className="mb-2 text-left font-medium">
          {title}
        </caption>
        <TableHeader>
          <TableRow>
            <TableHead scope="col">{USAGE_TEXT.columns.day}</TableHead>
            <TableHead scope="col">{middle}</TableHead>
            <TableHead scope="col" className="text-right">
              {USAGE_TEXT.columns.minutes}
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>{children}</TableBody>
      </table>
    </div>
  );
}

function UsageTables({ history, shown }: { history: UsageHistory; shown: boolean }) {
  const rows = usageRows(history);
  const { columns } = USAGE_TEXT;
  return (
    <div id="usage-tables" className={cn('flex flex-col gap-6', !shown && 'sr-only')} data-testid="usage-tables">
      <DayTable shown={shown} id="usage-table-title" title={USAGE_TEXT.tableTitle} middle={columns.robot}>
        {rows.map((r) => (
          <TableRow key={`${r.day}-${r.robotId}`}>
            <TableCell>{formatDay(r.day)}</TableCell>
            <TableCell className="whitespace-normal break-words">{r.robot}</TableCell>
            <TableCell className="text-right tabular-nums">{r.minutes.toLocaleString('en-GB')}</TableCell>
          </TableRow>
        ))}
      </DayTable>
      <DayTable shown={shown} id="usage-added-title" title={USAGE_TEXT.addedTitle} middle={columns.kind}>
        {history.events.length === 0 ? (
          <TableRow>
            <TableCell colSpan={3} className="text-muted-foreground">
              {USAGE_TEXT.noneAdded}
            </TableCell>
          </TableRow>
        ) : (
          [...history.events].reverse().map((e) => (
            <TableRow key={`${e.day}-${e.kind}`}>
              <TableCell>{formatDay(e.day)}</TableCell>
              <TableCell>{eventLabel(e.kind)}</TableCell>
              <TableCell className="text-right tabular-nums">{e.minutes.toLocaleString('en-GB')}</TableCell>
            </TableRow>
          ))
        )}
      </DayTable>
    </div>
  );
}

function Loading() {
  return (
    <div role="status" className="flex flex-col gap-4" data-testid="usage-loading">
      <Skeleton className="h-[300px] w-full rounded-xl" />
      <div className="grid gap-2 sm:grid-cols-2 xl:grid-cols-3">
        <Skeleton className="h-14 rounded-lg" />
        <Skeleton className="h-14 rounded-lg" />
      </div>
      <span className="sr-only">{USAGE_TEXT.loading}</span>
    </div>
  );
}

export interface UsageScreenProps {
  email: string;
  days: UsageRangeDays;
  onDaysChange: (days: UsageRangeDays) => void;
}

/** Dial-time history (issue 15): the chart, totals per robot, the table view and the CSV. */
export function UsageScreen({ email, days, onDaysChange }: UsageScreenProps) {
  const query = useUsageHistory(email, days);
  const [tableShown, setTableShown] = React.useState(false);
  const history = query.data;
  // While another range loads, the previous one stays on screen (marked busy).
  const switching = query.isPlaceholderData;
  const failed = query.isError && !isClientError(query.error, 'unauthenticated');

  const download = () => {
    if (history) downloadText(usageCsvName(days, history.to), usageCsv(history));
  };

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-3 md:flex-row md:items-end md:justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{USAGE_TEXT.title}</h1>
          <p className="text-sm text-muted-foreground">{USAGE_TEXT.intro}</p>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <RangePicker days={days} onChange={onDaysChange} />
          <Button variant="outline" onClick={download} disabled={!history || switching || history.usage.length === 0}>
            <DownloadIcon aria-hidden />
            {USAGE_TEXT.downloadCsv}
          </Button>
        </div>
      </div>

      {failed ? (
        <Alert variant="destructive" data-testid="usage-error">
          <TriangleAlertIcon aria-hidden />
          <AlertTitle className="flex flex-wrap items-center gap-3">
            {USAGE_TEXT.loadError}
            <Button size="sm" variant="outline" onClick={() => void query.refetch()} disabled={query.isFetching}>
              <RefreshCwIcon aria-hidden />
              {USAGE_TEXT.retry}
            </Button>
          </AlertTitle>
        </Alert>
      ) : !history ? (
        <Loading />
      ) : (
        <div className="flex flex-col gap-6" aria-busy={switching || undefined} data-testid="usage-history">
          {switching && (
            <p role="status" className="text-sm text-muted-foreground">
              {USAGE_TEXT.loading}
            </p>
          )}
          {history.total_minutes === 0 ? (
            <div
              className="flex flex-col items-center gap-2 rounded-xl border border-dashed bg-card p-8 text-center"
              data-testid="usage-empty"
            >
              <ChartColumnIcon aria-hidden className="size-8 text-muted-foreground" />
              <p className="font-medium">{USAGE_TEXT.empty(days)}</p>
              <p className="text-sm text-muted-foreground">{USAGE_TEXT.emptyHint}</p>
            </div>
          ) : (
            <>
              <section
                aria-labelledby="usage-chart-title"
                className="flex flex-col gap-3 rounded-xl border bg-card p-4 text-card-foreground shadow-sm"
              >
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <h2 id="usage-chart-title" className="text-lg font-semibold">
                    {USAGE_TEXT.chartTitle}
                  </h2>
                  <p className="text-xs text-muted-foreground">
                    {formatDay(history.from)} – {formatDay(history.to)}
                  </p>
                </div>
                <div data-testid="usage-chart">
                  <UsageChart history={history} />
                </div>
                <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted-foreground">
                  <span className="inline-flex items-center gap-1.5">
                    <span aria-hidden className="h-3 border-l-2 border-dashed border-muted-foreground" />
                    {eventLabel('allocation')}
                  </span>
                  <span className="inline-flex items-center gap-1.5">
                    <span aria-hidden className="h-3 border-l-2 border-dashed border-(--success)" />
                    {eventLabel('purchase')} / {eventLabel('grant').toLowerCase()}
                  </span>
                  <span>{USAGE_TEXT.chartNote}</span>
                </p>
              </section>
              <Totals history={history} />
            </>
          )}
          {(history.usage.length > 0 || history.events.length > 0) && (
            <section aria-labelledby="usage-table-heading" className="flex flex-col gap-3">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h2 id="usage-table-heading" className="text-lg font-semibold">
                  {USAGE_TEXT.tableSection}
                </h2>
                <Button
                  variant="outline"
                  size="sm"
                  aria-expanded={tableShown}
                  aria-controls="usage-tables"
                  onClick={() => setTableShown((s) => !s)}
                >
                  <TableIcon aria-hidden />
                  {tableShown ? USAGE_TEXT.hideTable : USAGE_TEXT.showTable}
                </Button>
              </div>
              <UsageTables history={history} shown={tableShown} />
            </section>
          )}
        </div>
      )}
    </div>
  );
}
