/** Geometry of the dial panel's pie: SVG paths for slices proportional to their values. */

export interface PieInput {
  key: string;
  value: number;
}

export interface PieSlice {
  key: string;
  /** share of the whole pie, 0-1 */
  fraction: number;
  /** an SVG path: a wedge, or the whole disc for a slice that is the entire pie */
  path: string;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** The point on the circle at `angle` radians clockwise from twelve o'clock. */
function point(cx: number, cy: number, r: number, angle: number): string {
  return `${round(cx + r * Math.sin(angle))} ${round(cy - r * Math.cos(angle))}`;
}

/**
 * Slices clockwise from twelve o'clock in input order. Negative values count as 0, zero slices are
 * left out, and a pie whose values are all 0 has no slices.
 */
export function pieSlices(values: readonly PieInput[], geometry: { cx: number; cy: number; r: number }): PieSlice[] {
  const { cx, cy, r } = geometry;
  const positive = values.map((v) => ({ key: v.key, value: Math.max(0, v.value) })).filter((v) => v.value > 0);
  const total = positive.reduce((sum, v) => sum + v.value, 0);
  if (total === 0) return [];
  let start = 0;
  return positive.map(({ key, value }) => {
    const fraction = value / total;
    if (fraction >= 1) {
      return {
        key,
        fraction: 1,
        path: `M ${cx} ${cy - r} A ${r} ${r} 0 1 1 ${cx} ${cy + r} A ${r} ${r} 0 1 1 ${cx} ${cy - r} Z`,
      };
    }
    const end = start + fraction * 2 * Math.PI;
    const large = end - start > Math.PI ? 1 : 0;
    const path = `M ${cx} ${cy} L ${point(cx, cy, r, start)} A ${r} ${r} 0 ${large} 1 ${point(cx, cy, r, end)} Z`;
    start = end;
    return { key, fraction, path };
  });
}
