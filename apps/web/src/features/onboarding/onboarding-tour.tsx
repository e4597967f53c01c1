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
import { ONBOARDING_OPEN_DELAY_MS } from '@/config/constants';
import { useAuth } from '@/lib/auth';
import { OnboardingProgressRing } from './onboarding-progress-ring';
import { greetingName } from './onboarding-state';
import { onboardingSteps } from './onboarding-steps';
import {
  closeTour,
  goToStep,
  markTourActive,
  openTourIfDue,
  releaseTourActive,
  useOnboardingTour,
} from './onboarding-store';

// Well inside the 5-minute lock, so a tour left open keeps other tabs from opening theirs.
const HEARTBEAT_MS = 60_000;

/** The first-visit tour (spec/000 §2). Mount once, inside the signed-in shell. */
export function OnboardingTour() {
  const { open, step } = useOnboardingTour();
  const { user } = useAuth();
  const steps = React.useMemo(() => onboardingSteps(greetingName(user?.name)), [user?.name]);

  React.useEffect(() => {
    const timer = window.setTimeout(() => openTourIfDue(), ONBOARDING_OPEN_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);

  React.useEffect(() => {
    if (!open) return;
    const timer = window.setInterval(() => markTourActive(), HEARTBEAT_MS);
    // A closed tab must not hold the lock for five minutes.
    window.addEventListener('pagehide', releaseTourActive);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('pagehide', releaseTourActive);
    };
  }, [open]);

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
