import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeSession } from '@/lib/session';
import { fakeServer, never, tokenPair, user } from '@/test/fake-server';
import { RobotManagerScreen } from './robots-manager-screen';

beforeEach(() => {
  vi.useFakeTimers();
  // The dial panel opens by default on wide screens; this test does not care which.
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: false,
    media: query,
    addEventListener() {},
    removeEventListener() {},
  }));
  storeSession(tokenPair(), user(), true);
  // GetLicences never answers, so the screen stays in its loading state.
  fakeServer({ GetLicences: never });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('Robot Manager loader (spec/001: shown only once loading lasts 700 ms)', () => {
  it('is not shown at 699 ms and is shown at 700 ms', async () => {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RobotManagerScreen email="ada@example.com" filter="all" onFilterChange={() => {}} />
      </QueryClientProvider>,
    );

    await act(async () => {
      await vi.advanceTimersByTimeAsync(699);
    });
    expect(screen.queryByText('Loading robots...')).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(screen.getByText('Loading robots...')).toBeTruthy();
  });
});
