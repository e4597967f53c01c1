import { CircleQuestionMarkIcon } from 'lucide-react';
import type * as React from 'react';
import { Button } from '@/components/ui/button';
import { restartOnboarding } from './onboarding-store';

/** The dashboard's help icon that replays the tour from its first step. */
export function ShowOnboardingButton({
  className,
  ...props
}: Omit<React.ComponentProps<typeof Button>, 'onClick' | 'children'>) {
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label="Show onboarding guide"
      title="Show onboarding guide"
      className={className}
      onClick={restartOnboarding}
      {...props}
    >
      <CircleQuestionMarkIcon />
    </Button>
  );
}
