// The two pages issue 13 measures, as the files they start with (paths from apps/web): read by
// vite.config.ts (the chunk groups of the signed-in start, decision 044) and by bench/bundle-size.ts
// (the page budgets), so both speak of the same pages.

/** /auth/login: its route files. */
export const SIGN_IN_PAGE = { routes: ['src/routes/auth/route.tsx', 'src/routes/auth/login.tsx'] } as const;

/** /dashboard, a signed-in start: the shell's and the landing page's route files, and the session's calls. */
export const SIGNED_IN_START = {
  routes: ['src/routes/_authenticated.tsx', 'src/routes/_authenticated/dashboard/index.tsx'],
  alsoLoads: ['src/lib/session-calls.ts'],
} as const;
