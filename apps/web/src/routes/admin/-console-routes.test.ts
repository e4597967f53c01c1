import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { createAppRouter } from '@/router';

// Some screens read the theme and screen size when their modules load; jsdom has no media queries.
vi.hoisted(() => {
  window.matchMedia = (query: string) =>
    ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }) as unknown as MediaQueryList;
});

/** Every console screen but the overview is under the console's splat route ($.tsx). */
describe('console routes', () => {
  const router = createAppRouter(new QueryClient());
  it.each([
    ['/admin/support', '/admin/_console/$', 'support'],
    ['/admin/support/SR-ABCD-EFGH', '/admin/_console/$', 'support/SR-ABCD-EFGH'],
    ['/admin/customers', '/admin/_console/$', 'customers'],
    [
      '/admin/customers/33333333-3333-4333-8333-333333333333',
      '/admin/_console/$',
      'customers/33333333-3333-4333-8333-333333333333',
    ],
    ['/admin/staff', '/admin/_console/$', 'staff'],
    ['/admin/api-keys', '/admin/_console/$', 'api-keys'],
    ['/admin/audit', '/admin/_console/$', 'audit'],
    ['/admin/releases', '/admin/_console/$', 'releases'],
  ])('%s', (path, routeId, splat) => {
    const match = router.matchRoutes(path, {}).at(-1);
    expect(match?.routeId).toBe(routeId);
    expect((match?.params as { _splat?: string } | undefined)?._splat).toBe(splat);
  });
});
