import { QueryClient } from '@tanstack/react-query';
import { isRedirect } from '@tanstack/react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { staffMe } from '@/features/admin/admin-fixtures';
import { storeSession } from '@/lib/session';
import { createAppRouter } from '@/router';
import { failure, fakeServer, OK, tokenPair, user } from '@/test/fake-server';
import { Route } from './_console';

// Some screens read the theme and screen size when their modules load; jsdom has no media queries.
vi.hoisted(() => {
  window.matchMedia = (query: string) =>
    ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }) as unknown as MediaQueryList;
});

/** The console's guard (docs/decisions/073): its beforeLoad, as the router calls it. */
async function guard(auth: {
  status: 'authenticated' | 'unauthenticated';
  user: { email: string; user_id: string } | null;
}) {
  const beforeLoad = Route.options.beforeLoad as unknown as (opts: unknown) => Promise<unknown>;
  try {
    return {
      context: await beforeLoad({
        context: { queryClient: new QueryClient(), auth },
        location: { href: '/admin/audit?action=staff.' },
      }),
    };
  } catch (err) {
    if (isRedirect(err)) return { redirect: err.options.href ?? err.options.to };
    return { error: err };
  }
}

const STAFF = { email: 'grace@example.com', user_id: 'u-staff' };
const notFound = () => ({ status: 404, json: failure(103, 'Not found') });

beforeEach(() => storeSession(tokenPair(), user(STAFF), true));

describe('the /admin guard', () => {
  it('sends a signed-out visitor to the passkey sign-in, coming back to where they were', async () => {
    const server = fakeServer({});
    expect(await guard({ status: 'unauthenticated', user: null })).toEqual({
      redirect: `/admin/sign-in?redirect=${encodeURIComponent('/admin/audit?action=staff.')}`,
    });
    expect(server.calls).toEqual([]);
  });

  it('sends anyone the server does not know as staff (its 404) to the dashboard', async () => {
    const server = fakeServer({
      Me: notFound,
      // An expired staff token also reads 404: the client renews once and asks again (decision 071).
      'refresh-access-token': () => ({ json: { tokenPair: tokenPair(), valid: true, error: OK } }),
    });
    expect(await guard({ status: 'authenticated', user: STAFF })).toEqual({ redirect: '/dashboard' });
    expect(server.count('Me')).toBe(2);
    expect(server.calls.find((c) => c.action === 'Me')?.authorization).toMatch(/^Bearer /);
  });

  it("lets a staff member in, with the server's answer in the route context", async () => {
    fakeServer({ Me: () => ({ json: staffMe('support') }) });
    const result = await guard({ status: 'authenticated', user: STAFF });
    expect(result).toEqual({
      context: { staff: expect.objectContaining({ role: 'support', email: 'grace@example.com' }) },
    });
  });

  it('any other failure is an error (the error screen offers to retry), not a redirect', async () => {
    fakeServer({ Me: () => ({ status: 500, json: failure(1, 'Internal error') }) });
    const result = await guard({ status: 'authenticated', user: STAFF });
    expect(result.error).toBeInstanceOf(Error);
  });
});

describe('the console routes', () => {
  const router = createAppRouter(new QueryClient());
  it.each([
    ['/admin', ['/admin/_console', '/admin/_console/']],
    ['/admin/staff', ['/admin/_console', '/admin/_console/$']],
    ['/admin/api-keys', ['/admin/_console', '/admin/_console/$']],
    ['/admin/audit', ['/admin/_console', '/admin/_console/$']],
    // Signing in and enrolling are outside the guard.
    ['/admin/sign-in', ['/admin/sign-in']],
    ['/admin/enrol', ['/admin/enrol']],
  ])('%s', (path, routeIds) => {
    const matched = router
      .matchRoutes(path, {})
      .map((m) => m.routeId)
      .filter((id) => id !== '__root__');
    expect(matched).toEqual(routeIds);
  });
});
