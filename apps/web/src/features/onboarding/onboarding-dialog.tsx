import { ExternalLinkIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { useAuth } from '@/lib/auth';
import { OnboardingProgressRing } from './onboarding-progress-ring';
import { greetingName } from './onboarding-state';
import { onboardingSteps } from './onboarding-steps';
import { closeTour, goToStep } from './onboarding-store';

/** The tour's dialog (spec/000 §2), fetched when the tour first opens; onboarding-tour.tsx keeps its timers. */
export function OnboardingDialog({ open, step }: { open: boolean; step: number }) {
  const { user } = useAuth();
  const steps = React.useMemo(() => onboardingSteps(greetingName(user?.name)), [user?.name]);
  const primaryRef = React.useRef<HTMLButtonElement>(null);
  const current = steps[step];
  if (!current) return null;
  const isFirst = step === 0;
  const isLast = step === steps.length - 1;
  const Icon = current.icon;

  return (
    <Dialog open={open} onOpenChange={(next) => !next && closeTour()}>
      <DialogContent
        className="sm:max-w-lg"
        data-testid="onboarding-tour"
        onOpenAutoFocus={(event) => {
          // Start on the way forward, so Enter walks through the tour.
          event.preventDefault();
          primaryRef.current?.focus();
        }}
      >
        <DialogHeader className="flex-row items-center gap-3 pr-6 text-left">
          <OnboardingProgressRing step={step} steps={steps.length} />
          <DialogTitle className="leading-snug">{current.title}</DialogTitle>
        </DialogHeader>
        <div className="flex gap-4">
          <span className="hidden size-10 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary sm:flex">
            <Icon aria-hidden className="size-5" />
          </span>
          <div className="grid gap-3">
            <DialogDescription asChild>
              <div className="text-sm leading-relaxed text-muted-foreground">{current.body}</div>
            </DialogDescription>
            {current.link && (
              <a
                href={current.link.href}
                target="_blank"
                rel="noreferrer"
                className="inline-flex w-fit items-center gap-1.5 rounded-sm text-sm font-medium text-primary underline-offset-4 hover:underline"
              >
                {current.link.label}
                <ExternalLinkIcon aria-hidden className="size-3.5" />
                <span className="sr-only">(opens in a new tab)</span>
              </a>
            )}
          </div>
        </div>
        <DialogFooter className="flex-row justify-between gap-2 sm:justify-between">
          {isFirst ? (
            <Button variant="ghost" onClick={closeTour}>
              Skip
            </Button>
          ) : (
            <Button variant="outline" onClick={() => goToStep(step - 1)}>
              Back
            </Button>
          )}
          {isLast ? (
            <Button ref={primaryRef} onClick={closeTour}>
              Finish
            </Button>
          ) : (
            <Button ref={primaryRef} onClick={() => goToStep(step + 1)}>
              Next
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
