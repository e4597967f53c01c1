import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { createAppRouter } from '@/router';

// Some screens read the theme and screen size when their modules load; jsdom has no media queries.
vi.hoisted(() => {
  window.matchMedia = (query: string) =>
    ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }) as unknown as MediaQueryList;
});

/** The sidebar's Add Robots and the cart's addresses must open their screens, not the dashboard's catch-all. */
describe('commerce routes (spec/001 §2)', () => {
  const router = createAppRouter(new QueryClient());
  it.each([
    ['/dashboard/robot/add', '/_authenticated/dashboard/robot/add'],
    ['/dashboard/cart', '/_authenticated/dashboard/cart/'],
    ['/dashboard/cart/success', '/_authenticated/dashboard/cart/success'],
    ['/dashboard/cart/cancel', '/_authenticated/dashboard/cart/cancel'],
  ])('%s', (path, routeId) => {
    const matches = router.matchRoutes(path, {});
    expect(matches.at(-1)?.routeId).toBe(routeId);
  });
});
