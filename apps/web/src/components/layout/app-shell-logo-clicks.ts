import { LOGO_SPIN_CLICKS } from '@/config/constants';

/**
 * Counts logo clicks that follow each other within the navigation delay. The third one spins the
 * logo instead of navigating; fewer navigate once the delay passes without another click.
 */
export function registerLogoClick(
  count: number,
  spinClicks: number = LOGO_SPIN_CLICKS,
): { count: number; spin: boolean } {
  const next = count + 1;
  return next >= spinClicks ? { count: 0, spin: true } : { count: next, spin: false };
}
