import { QueryClient } from '@tanstack/react-query';
import { createMemoryHistory } from '@tanstack/react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAppRouter } from '@/router';
import { tokenPair, user } from '@/test/fake-server';
import { clearStoredSession, storeSession } from './session';
import { warmStart } from './warm-start';

// Some screens read the theme and screen size when their modules load; jsdom has no media queries.
vi.hoisted(() => {
  window.matchMedia = (query: string) =>
    ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }) as unknown as MediaQueryList;
});

const nowS = () => Math.floor(Date.now() / 1000);

function routerAt(path: string) {
  const router = createAppRouter(new QueryClient(), {
    history: createMemoryHistory({ initialEntries: [path] }),
    origin: 'http://localhost',
  });
  const preload = vi.spyOn(router, 'preloadRoute').mockResolvedValue(undefined);
  const chunk = vi.spyOn(router, 'loadRouteChunk').mockResolvedValue(undefined);
  return { router, preload, chunk };
}

afterEach(() => {
  clearStoredSession();
  vi.restoreAllMocks();
});

describe('warmStart: what starts beside the start-up session check', () => {
  it.each([
    ['no stored session', 'nothing', () => {}],
    [
      'a stored session whose access token is good for 15 minutes',
      'code and data',
      () => storeSession(tokenPair(), user(), true),
    ],
    [
      'a stored session whose access token expired (renewing it would race the check for the refresh token)',
      'code',
      () => storeSession(tokenPair(nowS() - 60), user(), true),
    ],
    [
      'an access token within the refresh margin of its end',
      'code',
      () => storeSession(tokenPair(nowS() + 5), user(), true),
    ],
  ] as const)('%s: %s', (_label, expected, store) => {
    store();
    const { router, preload, chunk } = routerAt('/dashboard?filter=paired');
    expect(warmStart(router)).toBe(expected);
    expect(preload).toHaveBeenCalledTimes(expected === 'code and data' ? 1 : 0);
    if (expected === 'code') {
      // The page's own route files: the signed-in layout and the Robot Manager.
      const ids = chunk.mock.calls.map(([route]) => route.id);
      expect(ids).toEqual(expect.arrayContaining(['/_authenticated', '/_authenticated/dashboard/']));
    } else expect(chunk).not.toHaveBeenCalled();
  });

  it("routes the stored user's identity, at the address the router will load", () => {
    storeSession(tokenPair(), user({ email: 'grace@example.com', user_id: 'u-7' }), true);
    const { router, preload } = routerAt('/dashboard?filter=paired');
    warmStart(router);
    expect(router.options.context.auth).toEqual({
      status: 'authenticated',
      user: { email: 'grace@example.com', user_id: 'u-7' },
    });
    expect(preload).toHaveBeenCalledWith(expect.objectContaining({ to: '/dashboard', search: { filter: 'paired' } }));
  });
});
