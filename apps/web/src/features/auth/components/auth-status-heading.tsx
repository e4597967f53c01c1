import type { LucideIcon } from 'lucide-react';
import type * as React from 'react';
import { cn } from '@/lib/utils';

const TONE = { success: 'text-success', primary: 'text-primary', destructive: 'text-destructive' } as const;

/** The page heading of an auth outcome card: a large icon in the outcome's colour beside the h1. */
export function AuthStatusHeading({
  icon: Icon,
  tone,
  children,
}: {
  icon: LucideIcon;
  tone: keyof typeof TONE;
  children: React.ReactNode;
}) {
  return (
    <div className="flex items-center gap-3">
      <Icon className={cn('size-7 shrink-0', TONE[tone])} aria-hidden />
      <h1 className="text-2xl font-semibold tracking-tight">{children}</h1>
    </div>
  );
}
