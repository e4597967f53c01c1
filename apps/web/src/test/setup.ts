import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { loadToasts } from '@/lib/toast';

// Files share a worker's jsdom (vitest.config.ts, isolate: false) but not its modules: each file
// starts from a fresh module registry (module-level stores, vi.mock), and from empty storage.
vi.resetModules();
localStorage.clear();
sessionStorage.clear();

/*
 * A console.error during a web test fails it: React reports unhandled errors, act() warnings and
 * bad props there, and a test that passes while one of them is logged hides a bug.
 */
let logged: unknown[][] = [];

/** Popovers and menus (Radix) measure their trigger; jsdom has no layout to observe. */
class NoLayoutObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

// The app fetches sonner on its first toast (lib/toast.tsx); tests have it from the start, so a
// toast shows as soon as the code under test raises it.
beforeAll(async () => {
  await loadToasts();
});

beforeEach(() => {
  vi.stubGlobal('ResizeObserver', NoLayoutObserver);
  logged = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    logged.push(args);
  });
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  const errors = logged;
  logged = [];
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  if (errors.length > 0)
    throw new Error(
      `console.error was called during the test:\n${errors.map((args) => args.map(String).join(' ')).join('\n')}`,
    );
});
