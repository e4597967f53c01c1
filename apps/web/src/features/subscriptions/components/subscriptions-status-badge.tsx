import { Badge } from '@/components/ui/badge';
import { displayStatus, statusLabel } from '../subscriptions-table';

const VARIANT = {
  Active: 'success',
  PendingAssignment: 'secondary',
  Cancelled: 'destructive',
  Expired: 'outline',
  Inactive: 'outline',
} as const;

/** A subscription's status as a badge: Active, Pending, Cancelled, Expired, Inactive. */
export function StatusBadge({ status }: { status: string }) {
  const display = displayStatus(status);
  return (
    <Badge variant={display ? VARIANT[display] : 'outline'} data-testid="status-badge">
      {statusLabel(status)}
    </Badge>
  );
}
