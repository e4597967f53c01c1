import type { LicenseUse } from '@portal/contract';
import { UNUSED_AFTER_DAYS } from '@portal/contract';
import { Badge } from '@/components/ui/badge';
import { formatDateGB, formatDateTime } from '@/lib/dates';
import { cn } from '@/lib/utils';

/** Last seen and unused licenses (issue 15): what the robot cards and the manage page say. */
export const LIVE_TEXT = {
  unused: 'Unused',
  live: 'Live updates',
  lastSeen: (ms: number) => `Last seen ${formatDateTime(ms)}`,
  neverSeen: 'Not seen yet',
  reassign: 'You could reassign this license.',
  why: (use: Extract<LicenseUse, { unused: true }>) => {
    const since = formatDateGB(use.sinceMs);
    switch (use.reason) {
      case 'silent':
        return `Its robot has not reported for ${UNUSED_AFTER_DAYS} days or more (last on ${since}).`;
      case 'never-reported':
        return `Its robot has not reported since it was paired on ${since}.`;
      case 'unpaired':
        return `Unpaired since ${since}, ${UNUSED_AFTER_DAYS} days or more.`;
    }
  },
} as const;

/** When the robot last reported, or that it has not yet; `bare` leaves out "Last seen" (a labelled field). */
export function LastSeen({ ms, bare = false, className }: { ms: number; bare?: boolean; className?: string }) {
  return (
    <span className={cn('text-xs text-muted-foreground', className)} data-testid="last-seen">
      {ms ? (bare ? formatDateTime(ms) : LIVE_TEXT.lastSeen(ms)) : LIVE_TEXT.neverSeen}
    </span>
  );
}

/** The Unused badge with why, in words (not only in a tooltip), for a license the customer may reassign. */
export function UnusedNotice({ use, className }: { use: LicenseUse; className?: string }) {
  if (!use.unused) return null;
  return (
    <p className={cn('flex flex-col gap-1 text-xs', className)} data-testid="unused-license">
      <Badge variant="outline" className="border-amber-600 text-amber-800 dark:border-amber-400 dark:text-amber-200">
        {LIVE_TEXT.unused}
      </Badge>
      <span className="text-muted-foreground">
        {LIVE_TEXT.why(use)} {LIVE_TEXT.reassign}
      </span>
    </p>
  );
}

/**
 * "Live updates" while the event stream is open: robot status changes show as they happen. Nothing
 * otherwise (the spec's polling keeps the screen fresh then). `data-state` says which, for tests.
 * The dot stands still: an animation that never ends repaints the page for as long as it is open
 * (a laptop's battery; end-to-end tests ran half again as long with a pulsing one).
 */
export function LiveIndicator({ state }: { state: 'connecting' | 'open' | 'down' }) {
  return (
    <span
      data-testid="live-status"
      data-state={state}
      className="ml-auto inline-flex items-center gap-1.5 text-xs font-medium text-muted-foreground"
    >
      {state === 'open' && (
        <>
          <span aria-hidden className="size-2 rounded-full bg-success" />
          {LIVE_TEXT.live}
        </>
      )}
    </span>
  );
}
