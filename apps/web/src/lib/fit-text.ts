/**
 * The robot name's font size (spec/001 §2: 36 px shrinking to a minimum of 12 px to fit). Text
 * width grows in proportion to font size, so one measurement at a known size gives the size at
 * which the text just fits; rounding down to whole pixels keeps it inside.
 */
export function fitFontSize(input: {
  /** the text's width (scrollWidth) when set at `measuredAtPx` */
  textWidth: number;
  measuredAtPx: number;
  /** the room the text has (clientWidth) */
  availableWidth: number;
  maxPx: number;
  minPx: number;
}): number {
  const { textWidth, measuredAtPx, availableWidth, maxPx, minPx } = input;
  if (textWidth <= 0 || measuredAtPx <= 0) return maxPx;
  if (availableWidth <= 0) return minPx;
  const fitting = Math.floor((measuredAtPx * availableWidth) / textWidth);
  return Math.min(maxPx, Math.max(minPx, fitting));
}
