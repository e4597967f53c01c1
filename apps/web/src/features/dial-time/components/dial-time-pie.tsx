import type { DialSummary } from '@portal/contract';
import { pieSlices } from '../dial-time-pie';

export const POOL_STYLE = {
  durable: { label: 'Durable time', fill: 'fill-primary', swatch: 'bg-primary' },
  perishable: { label: 'Perishable time', fill: 'fill-amber-500', swatch: 'bg-amber-500' },
} as const;

export const formatPercent = (n: number) => `${Math.round(n)}%`;

/** The pie of durable and perishable time as percentages remaining; its label says the same in words. */
export function DialTimePie({ summary }: { summary: DialSummary }) {
  const slices = pieSlices(
    [
      { key: 'durable', value: summary.durable.percentRemaining },
      { key: 'perishable', value: summary.perishable.percentRemaining },
    ],
    { cx: 50, cy: 50, r: 48 },
  );
  const label = `Durable time ${formatPercent(summary.durable.percentRemaining)} remaining, perishable time ${formatPercent(summary.perishable.percentRemaining)} remaining`;
  return (
    <svg viewBox="0 0 100 100" role="img" aria-label={label} className="size-24 shrink-0 sm:size-32">
      <circle cx="50" cy="50" r="48" className="fill-muted" />
      {slices.map((slice) => (
        <path
          key={slice.key}
          d={slice.path}
          className={`${POOL_STYLE[slice.key as keyof typeof POOL_STYLE].fill} stroke-card`}
          strokeWidth={slices.length > 1 ? 1.5 : 0}
        />
      ))}
    </svg>
  );
}
