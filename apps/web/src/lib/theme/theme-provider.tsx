import * as React from 'react';
import { readLocal, writeLocal } from '@/lib/safe-storage';
import {
  parseThemePreference,
  type ResolvedTheme,
  resolveTheme,
  THEME_STORAGE_KEY,
  type ThemePreference,
} from './theme-preference';

/*
 * The theme is a small module-level store rather than React state: the inline script in index.html has
 * already applied it before the first paint, several unrelated trees (user menu, landing page) read it,
 * and it must follow the operating system and other tabs even when no provider is mounted.
 */

const DARK_QUERY = '(prefers-color-scheme: dark)';

interface ThemeSnapshot {
  theme: ThemePreference;
  resolvedTheme: ResolvedTheme;
}

const listeners = new Set<() => void>();
let preference: ThemePreference = parseThemePreference(readLocal(THEME_STORAGE_KEY));
let forcedLightCount = 0;
let snapshot: ThemeSnapshot = compute();

function systemDark(): boolean {
  return typeof window !== 'undefined' && window.matchMedia(DARK_QUERY).matches;
}

function compute(): ThemeSnapshot {
  return { theme: preference, resolvedTheme: resolveTheme(preference, systemDark(), forcedLightCount > 0) };
}

function update(): void {
  const next = compute();
  if (typeof document !== 'undefined') document.documentElement.classList.toggle('dark', next.resolvedTheme === 'dark');
  if (next.theme === snapshot.theme && next.resolvedTheme === snapshot.resolvedTheme) return;
  snapshot = next;
  for (const listener of listeners) listener();
}

function onStorage(event: StorageEvent): void {
  if (event.key !== THEME_STORAGE_KEY) return;
  preference = parseThemePreference(event.newValue);
  update();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const mql = window.matchMedia(DARK_QUERY);
  if (listeners.size === 1) {
    mql.addEventListener('change', update);
    window.addEventListener('storage', onStorage);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      mql.removeEventListener('change', update);
      window.removeEventListener('storage', onStorage);
    }
  };
}

export function setTheme(next: ThemePreference): void {
  preference = next;
  writeLocal(THEME_STORAGE_KEY, next);
  update();
}

export function useTheme(): ThemeSnapshot & { setTheme: (theme: ThemePreference) => void } {
  const current = React.useSyncExternalStore(
    subscribe,
    () => snapshot,
    () => snapshot,
  );
  return { ...current, setTheme };
}

/** Keeps the theme following the system and other tabs on pages without a theme control. */
export function ThemeProvider({ children }: { children: React.ReactNode }) {
  useTheme();
  return children;
}

/** Shows the page light whatever the preference, while the calling component is mounted. */
export function useForcedLightTheme(): void {
  React.useLayoutEffect(() => {
    forcedLightCount += 1;
    update();
    return () => {
      forcedLightCount -= 1;
      update();
    };
  }, []);
}
