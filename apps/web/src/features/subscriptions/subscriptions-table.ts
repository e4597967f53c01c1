import { ONE_DAY_S, OverrideKind, robotDisplayName } from '@portal/contract';

/**
 * The Robot Driver Subscriptions table and the Manage Subscription page (spec/001 §2 and §4):
 * statuses, row actions and their toasts, durations, badges and product names. Dates are in lib/dates.ts.
 */

export type DisplayStatus = 'Active' | 'Expired' | 'Cancelled' | 'PendingAssignment' | 'Inactive';

const DISPLAY_STATUS: Record<string, DisplayStatus> = {
  active: 'Active',
  expired: 'Expired',
  cancelled: 'Cancelled',
  // the payment provider spells it with one l
  canceled: 'Cancelled',
  pending_assignment: 'PendingAssignment',
  pendingassignment: 'PendingAssignment',
  inactive: 'Inactive',
};

/** The display form of a stored status (pending_assignment -> PendingAssignment); undefined if unknown. */
export function displayStatus(status: string | null | undefined): DisplayStatus | undefined {
  return DISPLAY_STATUS[(status ?? '').trim().toLowerCase()];
}

/** What a status badge reads: PendingAssignment shows as Pending; an unknown status is capitalised. */
export function statusLabel(status: string | null | undefined): string {
  const display = displayStatus(status);
  if (display === 'PendingAssignment') return 'Pending';
  if (display) return display;
  const raw = (status ?? '').trim().replace(/_/g, ' ');
  return raw ? raw[0]!.toUpperCase() + raw.slice(1) : '';
}

export const SUPPORT_PATH = '/dashboard/support';

export function manageSubscriptionPath(subscriptionId: string): string {
  return `/dashboard/subscriptions/manager/stripe/${encodeURIComponent(subscriptionId)}`;
}

export function robotManagerPath(robotId: string): string {
  return `/dashboard/robot/manager/${encodeURIComponent(robotId)}`;
}

export type RowAction =
  | { kind: 'viewRobot'; label: 'View Robot' }
  | { kind: 'manageSubscription'; label: 'Manage Subscription'; href: string }
  | { kind: 'getHelp'; label: 'Get Help'; href: string };

/** Active rows offer View Robot, Manage Subscription and Get Help; every other status only Get Help. */
export function rowActions(status: string, subscriptionId: string): RowAction[] {
  const help: RowAction = { kind: 'getHelp', label: 'Get Help', href: SUPPORT_PATH };
  if (displayStatus(status) !== 'Active') return [help];
  return [
    { kind: 'viewRobot', label: 'View Robot' },
    { kind: 'manageSubscription', label: 'Manage Subscription', href: manageSubscriptionPath(subscriptionId) },
    help,
  ];
}

export interface Toast {
  title: string;
  description: string;
}

export const ROBOT_NOT_PAIRED: Toast = {
  title: 'Robot Not Paired',
  description: 'Opening robot registration guide...',
};
export const CANNOT_MANAGE_ROBOT: Toast = {
  title: 'Cannot navigate to Manage Robot',
  description: 'Has the robot been paired?',
};

/**
 * Where View Robot goes: the paired robot's manager page, or the toast when none is paired
 * (the subscriptions table also opens the registration guide; the items table only shows its toast).
 */
export function viewRobotTarget(
  robotId: string | null | undefined,
  from: 'subscriptionsTable' | 'itemsTable',
): { href: string } | { toast: Toast } {
  if (robotId) return { href: robotManagerPath(robotId) };
  return { toast: from === 'subscriptionsTable' ? ROBOT_NOT_PAIRED : CANNOT_MANAGE_ROBOT };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A duration in seconds as "N days, M hours" (whole days and hours, "1 day" and "1 hour" singular). */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const days = Math.floor(s / ONE_DAY_S);
  const hours = Math.floor((s % ONE_DAY_S) / 3_600);
  return `${plural(days, 'day')}, ${plural(hours, 'hour')}`;
}

/** Expiry of a subscription: created_at (epoch ms) plus duration (seconds), in epoch ms. */
export function expiryMs(createdAtMs: number, durationS: number): number {
  return createdAtMs + durationS * 1_000;
}

/** The payment provider's epoch seconds as epoch ms. */
export function epochSecondsToMs(seconds: number): number {
  return seconds * 1_000;
}

export type OverrideBadge = 'FreeTrial' | 'BowOverride' | 'Other';

/** The badge of a gifted subscription; none for a paid one (99) or an unknown kind. */
export function overrideBadge(kind: number | null | undefined): OverrideBadge | undefined {
  switch (kind) {
    case OverrideKind.FreeTrial:
      return 'FreeTrial';
    case OverrideKind.BowOverride:
      return 'BowOverride';
    case OverrideKind.Other:
      return 'Other';
    default:
      return undefined;
  }
}

export const UNKNOWN_PRODUCT = 'Unknown Product';

/** The product a subscription row names: by product id or by the product's BOW_UUID; else "Unknown Product". */
export function productNameFor(
  key: string | null | undefined,
  products: readonly { id: string; name: string; metadata?: { BOW_UUID?: string | undefined } }[],
): string {
  if (!key) return UNKNOWN_PRODUCT;
  const name = products.find((p) => p.id === key || p.metadata?.BOW_UUID === key)?.name;
  // As the cards and the cart name it: "Tiago_Steel driver" reads "Tiago Steel driver".
  return name ? robotDisplayName(name) : UNKNOWN_PRODUCT;
}

export const NO_SUBSCRIPTIONS_TO_REFRESH = 'You have no subscriptions to refresh.';

/** Refresh Subscriptions: with none, show the notice and do not refetch. */
export function refreshPlan(subscriptionCount: number): { refetch: true } | { refetch: false; message: string } {
  return subscriptionCount > 0 ? { refetch: true } : { refetch: false, message: NO_SUBSCRIPTIONS_TO_REFRESH };
}
