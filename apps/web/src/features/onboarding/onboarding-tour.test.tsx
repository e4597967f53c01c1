import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ONBOARDING_KEYS, serializeActiveMarker } from './onboarding-state';
import { closeTour } from './onboarding-store';
import { OnboardingTour, onboardingDialog } from './onboarding-tour';

vi.mock('@/lib/auth', () => ({ useAuth: () => ({ user: { name: 'Ada' } }) }));

const NOW = Date.UTC(2026, 0, 1, 12);
const minutes = (n: number) => n * 60_000;

function otherTabShowedTourAt(at: number) {
  localStorage.setItem(ONBOARDING_KEYS.active, serializeActiveMarker({ tabId: 'another-tab', at }));
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});
afterEach(() => {
  cleanup();
  // The tour's state lives in a module-level store: close it for the next test.
  closeTour();
  vi.useRealTimers();
});

const tour = () => screen.queryByTestId('onboarding-tour');

/** The dialog's code is fetched when the tour first opens: let it arrive. */
async function dialogArrives() {
  await act(async () => {
    await onboardingDialog.preload();
  });
}

describe('Onboarding tour opening (spec/000 §2)', () => {
  it('opens 1 s after load on a first visit, not before', async () => {
    render(<OnboardingTour />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(999);
    });
    expect(tour()).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    await dialogArrives();
    expect(tour()).not.toBeNull();
    expect(screen.getByText(/Ada/)).toBeTruthy();
  });

  it('does not open while another tab showed it within the last 5 minutes', async () => {
    // 1 ms short of the lock when the tour is due, 1 s after load
    otherTabShowedTourAt(NOW + 1_000 - minutes(5) + 1);
    render(<OnboardingTour />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5_000);
    });
    expect(tour()).toBeNull();
  });

  it('opens when the other tab last showed it 5 minutes ago or more', async () => {
    otherTabShowedTourAt(NOW + 1_000 - minutes(5));
    render(<OnboardingTour />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_000);
    });
    await dialogArrives();
    expect(tour()).not.toBeNull();
  });

  it('does not open once the first visit is completed', async () => {
    localStorage.setItem(ONBOARDING_KEYS.completed, 'true');
    render(<OnboardingTour />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5_000);
    });
    expect(tour()).toBeNull();
  });
});
