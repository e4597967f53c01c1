/**
 * Geometry and labels of the dial panel's pies. Each pool (durable, perishable) has its own pie drawn
 * against that pool's own total: the two percentages measure different things, so they are never
 * added into one circle.
 */

export interface PieGeometry {
  cx: number;
  cy: number;
  r: number;
}

export interface PoolPie {
  /** share of the pool that remains, 0-1 */
  fraction: number;
  /** an SVG path of the remaining share: a wedge, the whole disc when full, '' when nothing remains */
  path: string;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** The point on the circle at `angle` radians clockwise from twelve o'clock. */
function point({ cx, cy, r }: PieGeometry, angle: number): string {
  return `${round(cx + r * Math.sin(angle))} ${round(cy - r * Math.cos(angle))}`;
}

/**
 * The pie of one pool from its percentage remaining (0-100): a wedge clockwise from twelve o'clock.
 * Values outside 0-100 (or not a number) are clamped, so a bad figure never draws a wrong pie.
 */
export function poolPie(percentRemaining: number, geometry: PieGeometry): PoolPie {
  const { cx, cy, r } = geometry;
  const fraction = Number.isFinite(percentRemaining) ? Math.min(1, Math.max(0, percentRemaining / 100)) : 0;
  if (fraction === 0) return { fraction, path: '' };
  if (fraction === 1)
    return {
      fraction,
      path: `M ${cx} ${cy - r} A ${r} ${r} 0 1 1 ${cx} ${cy + r} A ${r} ${r} 0 1 1 ${cx} ${cy - r} Z`,
    };
  const end = fraction * 2 * Math.PI;
  const large = fraction > 0.5 ? 1 : 0;
  return { fraction, path: `M ${cx} ${cy} L ${point(geometry, 0)} A ${r} ${r} 0 ${large} 1 ${point(geometry, end)} Z` };
}

/**
 * A percentage as the panel shows it, rounded to a whole number, except that a pool with a little
 * left never reads "0%" and a pool with a little used never reads "100%".
 */
export function formatPercent(percent: number): string {
  const p = Number.isFinite(percent) ? Math.min(100, Math.max(0, percent)) : 0;
  const rounded = Math.round(p);
  if (rounded === 0 && p > 0) return '<1%';
  if (rounded === 100 && p < 100) return '>99%';
  return `${rounded}%`;
}
