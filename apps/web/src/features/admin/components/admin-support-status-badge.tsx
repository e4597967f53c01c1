import type { SupportStatus } from '@portal/contract';
import { Badge } from '@/components/ui/badge';
import { SUPPORT_STATUS_NAMES } from '../admin-text';

const VARIANT: Record<SupportStatus, 'default' | 'secondary' | 'outline'> = {
  new: 'default',
  open: 'secondary',
  waiting: 'outline',
  closed: 'outline',
};

/** A request's status as the inbox and the customer view show it. */
export function AdminSupportStatusBadge({ status }: { status: SupportStatus }) {
  return (
    <Badge variant={VARIANT[status]} data-status={status}>
      {SUPPORT_STATUS_NAMES[status]}
    </Badge>
  );
}
