import { accessTokenExpired } from '@portal/client';
import type { AnyRoute } from '@tanstack/react-router';
import type { AppRouter } from '../router';
import { readSession } from './session';

/**
 * With a stored session the app first checks it with the server (spec/000 §4: the loading screen
 * shows until it settles), and only then did the router fetch the page's code and start its calls:
 * two round trips and the session's own code in a row before any of the page's. Now they start at
 * once, beside the check:
 * - the page's code, always (it is the same whatever the check answers);
 * - the page's calls too when the stored access token is still good: they are the calls the page
 *   would make with that token. An expired token is left alone: renewing it would spend the
 *   refresh token the check is spending.
 * Only code and the query cache are filled. What shows still waits for the check, with its answer's
 * user; a refused session shows none of it (signing out clears the cache).
 */
export function warmStart(router: AppRouter): 'code' | 'code and data' | 'nothing' {
  const { accessToken, refreshToken, email, userId } = readSession();
  if (!refreshToken) return 'nothing';
  // The address the router read at its creation: the one it will load.
  const { pathname, search, hash } = router.state.location;
  if (accessToken && email && userId && !accessTokenExpired(accessToken, Math.floor(Date.now() / 1000))) {
    router.update({
      ...router.options,
      context: { ...router.options.context, auth: { status: 'authenticated', user: { email, user_id: userId } } },
    });
    const here = { to: pathname, search, hash } as unknown as Parameters<AppRouter['preloadRoute']>[0];
    void router.preloadRoute(here).catch(() => undefined);
    return 'code and data';
  }
  for (const match of router.matchRoutes(pathname, search)) {
    const route = (router.routesById as unknown as Record<string, AnyRoute | undefined>)[match.routeId];
    if (route) void router.loadRouteChunk(route)?.catch(() => undefined);
  }
  return 'code';
}
