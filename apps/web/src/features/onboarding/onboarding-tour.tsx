import * as React from 'react';
import { ONBOARDING_OPEN_DELAY_MS } from '@/config/constants';
import { onDemand, prefetch } from '@/lib/on-demand';
import { markTourActive, openTourIfDue, releaseTourActive, useOnboardingTour } from './onboarding-store';

// Well inside the 5-minute lock, so a tour left open keeps other tabs from opening theirs.
const HEARTBEAT_MS = 60_000;

/** The tour's dialog, its steps and their pictures are fetched when the tour first opens (docs/decisions/034). Exported for tests. */
export const onboardingDialog = onDemand(() => import('./onboarding-dialog'));

/** The first-visit tour (spec/000 §2). Mount once, inside the signed-in shell. */
export function OnboardingTour() {
  const { open, step } = useOnboardingTour();
  const loaded = onboardingDialog.useModule();

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

  React.useEffect(() => {
    if (open) prefetch(onboardingDialog);
  }, [open]);

  return loaded ? <loaded.OnboardingDialog open={open} step={step} /> : null;
}
