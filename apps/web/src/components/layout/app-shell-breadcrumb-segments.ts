export interface Crumb {
  label: string;
  /** the path up to and including this segment */
  href: string;
}

/** "flexible_licenses" -> "Flexible Licenses" (spec/000 §2: underscores become spaces, words capitalised). */
export function formatSegment(segment: string): string {
  let text = segment;
  try {
    text = decodeURIComponent(segment);
  } catch {
    // A malformed escape is shown as typed.
  }
  return text
    .split('_')
    .flatMap((part) => part.split(' '))
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

export function crumbsFromPath(pathname: string): Crumb[] {
  const segments = pathname.split('/').filter(Boolean);
  return segments
    .map((segment, i) => ({ label: formatSegment(segment), href: `/${segments.slice(0, i + 1).join('/')}` }))
    .filter((crumb) => crumb.label !== '');
}

/**
 * On small screens only the first and the last crumb stay in the bar; those between go into a
 * menu. Two crumbs or fewer have nothing to fold.
 */
export function collapseCrumbs<T>(crumbs: readonly T[]): { first: T | null; middle: T[]; last: T | null } {
  if (crumbs.length === 0) return { first: null, middle: [], last: null };
  if (crumbs.length === 1) return { first: null, middle: [], last: crumbs[0] ?? null };
  return { first: crumbs[0] ?? null, middle: crumbs.slice(1, -1), last: crumbs[crumbs.length - 1] ?? null };
}

/** The folded levels' button (small screens): its look and its name, shared by its stand-in and the menu's trigger. */
export const ellipsisClass = 'flex items-center rounded-md hover:bg-accent';
export const ellipsisLabel = (count: number) => `Show ${count === 1 ? '1 more level' : `${count} more levels`}`;
