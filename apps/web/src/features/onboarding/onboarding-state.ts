import { ONBOARDING_ACTIVITY_LOCK_MS, ONBOARDING_STEPS } from '@/config/constants';

export const ONBOARDING_KEYS = {
  /** 'true' once the tour was finished, skipped or closed (spec/000 §3 local preferences). */
  completed: 'hasCompletedFirstVisit',
  /** zero-based index of the step on screen */
  step: 'onboardingCurrentStep',
  /** which tab shows the tour and when it last said so, so a second tab does not open it too */
  active: 'onboardingActive',
} as const;

export interface ActiveMarker {
  tabId: string;
  at: number;
}

/** A stored step index, clamped into range; anything unreadable starts from the beginning. */
export function parseStep(raw: string | null, steps: number = ONBOARDING_STEPS): number {
  if (raw === null || raw.trim() === '') return 0;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) return 0;
  return Math.min(n, steps - 1);
}

export function parseActiveMarker(raw: string | null): ActiveMarker | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const { tabId, at } = value as Record<string, unknown>;
    if (typeof tabId !== 'string' || typeof at !== 'number' || !Number.isFinite(at)) return null;
    return { tabId, at };
  } catch {
    return null;
  }
}

export function serializeActiveMarker(marker: ActiveMarker): string {
  return JSON.stringify(marker);
}

/**
 * Whether the tour opens by itself on this page load (spec/000 §2 Onboarding tour): not after the
 * first visit was completed, and not while another tab showed it within the activity lock. A marker
 * from this same tab (a reload mid-tour) or from the future (a changed clock) does not block it.
 */
export function shouldOpenOnboarding(input: {
  completed: string | null;
  marker: ActiveMarker | null;
  tabId: string;
  now: number;
  lockMs?: number;
}): boolean {
  if (input.completed === 'true') return false;
  const { marker } = input;
  if (!marker || marker.tabId === input.tabId) return true;
  const age = input.now - marker.at;
  return age < 0 || age >= (input.lockMs ?? ONBOARDING_ACTIVITY_LOCK_MS);
}

/** The name the tour greets: the user's own, or 'there' ("Hi there!") when none is known. */
export function greetingName(name: string | null | undefined): string {
  const trimmed = name?.trim();
  return trimmed ? trimmed : 'there';
}

/** How much of the progress ring is drawn for a zero-based step, from 1/steps to 1. */
export function progressFraction(step: number, steps: number): number {
  if (steps <= 0) return 0;
  return Math.min(Math.max(step + 1, 0), steps) / steps;
}
