import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { act, render } from '@testing-library/react';
import type * as React from 'react';
import { Toaster, toast } from 'sonner';
import { vi } from 'vitest';

/**
 * Renders a screen under a router (its Links need one) and a fresh query client, with the toaster,
 * and lets the router settle. Works with fake timers: the settling advances them by 0 ms only.
 */
export async function renderScreen(ui: React.ReactNode, path = '/') {
  // The router restores scroll positions after each load, and jsdom has no scrolling.
  vi.stubGlobal('scrollTo', () => {});
  // The toaster replays every toast still active when it mounts, so one test's toasts would show in the next.
  toast.dismiss();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const rootRoute = createRootRoute({
    component: () => (
      <>
        {ui}
        <Toaster />
      </>
    ),
  });
  const router = createRouter({ routeTree: rootRoute, history: createMemoryHistory({ initialEntries: [path] }) });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  await settle();
  return { ...result, queryClient, router };
}

/** Lets pending promises and 0 ms timers run, under real or fake timers alike. */
export async function settle(ms = 0) {
  await act(async () => {
    if (vi.isFakeTimers()) await vi.advanceTimersByTimeAsync(ms);
    else await new Promise((resolve) => setTimeout(resolve, ms));
  });
}
