import type { DialSummary } from '@portal/contract';
import { formatPercent, poolPie } from '../dial-time-pie';

export type Pool = 'durable' | 'perishable';

// Each fill keeps at least 3:1 against the muted disc it sits on, in light and dark theme.
export const POOL_STYLE = {
  durable: { label: 'Durable time', fill: 'fill-primary' },
  perishable: { label: 'Perishable time', fill: 'fill-amber-600 dark:fill-amber-400' },
} as const satisfies Record<Pool, { label: string; fill: string }>;

const R = 46;

/**
 * One pool's pie (spec/001 §2): the remaining share of that pool's own total, on a disc that stands
 * for the whole pool. Its text alternative says the percentage the panel prints beside it.
 */
export function PoolPie({ pool, summary }: { pool: Pool; summary: DialSummary }) {
  const percent = summary[pool].percentRemaining;
  const { path } = poolPie(percent, { cx: 50, cy: 50, r: R });
  return (
    <svg
      viewBox="0 0 100 100"
      role="img"
      aria-label={`${POOL_STYLE[pool].label}: ${formatPercent(percent)} remaining`}
      className="size-16 shrink-0 sm:size-20"
      data-testid={`${pool}-pie`}
    >
      <circle cx="50" cy="50" r={R} className="fill-muted stroke-border" strokeWidth={2} />
      {path && <path d={path} className={POOL_STYLE[pool].fill} />}
    </svg>
  );
}
