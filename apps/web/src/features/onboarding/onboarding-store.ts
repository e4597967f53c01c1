import * as React from 'react';
import { ONBOARDING_STEPS } from '@/config/constants';
import { readLocal, removeLocal, writeLocal } from '@/lib/safe-storage';
import {
  ONBOARDING_KEYS,
  parseActiveMarker,
  parseStep,
  serializeActiveMarker,
  shouldOpenOnboarding,
} from './onboarding-state';

/*
 * A module-level store, so the sidebar entry and the dashboard's help button can restart the tour
 * without a provider between them and the dialog mounted in the shell.
 */

export interface TourState {
  open: boolean;
  /** zero-based */
  step: number;
}

const TAB_ID_KEY = 'onboardingTabId';
const listeners = new Set<() => void>();
let state: TourState = { open: false, step: 0 };
let cachedTabId: string | null = null;

function emit(next: TourState): void {
  state = next;
  for (const listener of listeners) listener();
}

/** Survives a reload of this tab (sessionStorage) but differs between tabs. */
function tabId(): string {
  if (cachedTabId) return cachedTabId;
  let id: string | null = null;
  try {
    id = window.sessionStorage.getItem(TAB_ID_KEY);
    if (!id) {
      id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
      window.sessionStorage.setItem(TAB_ID_KEY, id);
    }
  } catch {
    id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  }
  cachedTabId = id;
  return id;
}

/** Tells other tabs this one is showing the tour; called on open and periodically while open. */
export function markTourActive(now: number = Date.now()): void {
  writeLocal(ONBOARDING_KEYS.active, serializeActiveMarker({ tabId: tabId(), at: now }));
}

export function releaseTourActive(): void {
  const marker = parseActiveMarker(readLocal(ONBOARDING_KEYS.active));
  if (marker?.tabId === tabId()) removeLocal(ONBOARDING_KEYS.active);
}

function show(step: number): void {
  markTourActive();
  emit({ open: true, step });
}

/** Opens the tour where it was left, when it is due (first visit, not shown by another tab). */
export function openTourIfDue(now: number = Date.now()): void {
  if (state.open) return;
  const due = shouldOpenOnboarding({
    completed: readLocal(ONBOARDING_KEYS.completed),
    marker: parseActiveMarker(readLocal(ONBOARDING_KEYS.active)),
    tabId: tabId(),
    now,
  });
  if (due) show(parseStep(readLocal(ONBOARDING_KEYS.step)));
}

/** Shows the tour from its first step, whatever was stored; an explicit request beats the tab lock. */
export function restartOnboarding(): void {
  writeLocal(ONBOARDING_KEYS.step, '0');
  show(0);
}

export function goToStep(step: number): void {
  const clamped = Math.min(Math.max(step, 0), ONBOARDING_STEPS - 1);
  writeLocal(ONBOARDING_KEYS.step, String(clamped));
  markTourActive();
  emit({ ...state, step: clamped });
}

/** Finish, Skip and closing the dialog all complete the first visit (spec/000 §2). */
export function closeTour(): void {
  writeLocal(ONBOARDING_KEYS.completed, 'true');
  removeLocal(ONBOARDING_KEYS.step);
  releaseTourActive();
  emit({ open: false, step: 0 });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useOnboardingTour(): TourState {
  return React.useSyncExternalStore(
    subscribe,
    () => state,
    () => state,
  );
}
