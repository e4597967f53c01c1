import { cn } from '@/lib/utils';
import type { RobotCardModel } from '../robots-cards';

/** Active or Inactive, in words as well as colour. */
export function RobotStatus({ status, className }: { status: RobotCardModel['status']; className?: string }) {
  const active = status === 'Active';
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1.5 font-medium',
        active ? 'text-success' : 'text-muted-foreground',
        className,
      )}
    >
      <span aria-hidden className={cn('size-2 rounded-full', active ? 'bg-success' : 'border border-current')} />
      {status}
    </span>
  );
}
