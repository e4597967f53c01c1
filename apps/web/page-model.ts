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

/**
 * /admin, the back office (issue 34, docs/decisions/073): the console's route files, and the names
 * vite.config.ts gives its chunks: `staff-check` (the guard's call, all a customer who opens /admin
 * fetches) and `admin-console` (the frame and the screens, fetched once the guard passed).
 */
export const ADMIN_CONSOLE = {
  routes: ['src/routes/admin/_console.tsx', 'src/routes/admin/_console/index.tsx'],
  guard: 'src/routes/admin/-staff-check.ts',
  /** the console's route files: their split modules, and what only they reach, make its chunk */
  routesDir: 'src/routes/admin/',
  chunks: { guard: 'staff-check', console: 'admin-console' },
} as const;
