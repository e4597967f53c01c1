/**
 * Series colours of the usage chart: distinct hues readable on the light and the dark card. More
 * robots than colours repeat them; the totals list and the tables name every robot.
 */
export const SERIES_COLORS = [
  'oklch(0.58 0.19 262)',
  'oklch(0.72 0.16 65)',
  'oklch(0.62 0.15 160)',
  'oklch(0.6 0.21 25)',
  'oklch(0.58 0.2 300)',
  'oklch(0.68 0.12 210)',
  'oklch(0.65 0.2 350)',
  'oklch(0.7 0.17 125)',
] as const;

export const seriesColor = (index: number): string => SERIES_COLORS[index % SERIES_COLORS.length] ?? SERIES_COLORS[0];

/** The markers of minutes added: the yearly allocation, and time bought or granted. */
export const MARKER_COLORS = { allocation: 'var(--muted-foreground)', credit: 'var(--success)' } as const;
