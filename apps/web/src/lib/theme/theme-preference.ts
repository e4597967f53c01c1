export const THEME_STORAGE_KEY = 'theme';
export const THEME_PREFERENCES = ['light', 'dark', 'system'] as const;
export type ThemePreference = (typeof THEME_PREFERENCES)[number];
export type ResolvedTheme = 'light' | 'dark';

/** Anything unknown (never chosen, or written by an older build) follows the system. */
export function parseThemePreference(raw: string | null): ThemePreference {
  return THEME_PREFERENCES.find((t) => t === raw) ?? 'system';
}

export function resolveTheme(preference: ThemePreference, systemDark: boolean, forcedLight: boolean): ResolvedTheme {
  if (forcedLight) return 'light';
  if (preference === 'system') return systemDark ? 'dark' : 'light';
  return preference;
}
