import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { PLATFORM_NAV } from '@/components/layout/app-shell-nav';
import { createAppRouter } from '@/router';

vi.hoisted(() => {
  window.matchMedia = (query: string) =>
    ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }) as unknown as MediaQueryList;
});

/** The sidebar's "Flexible Licenses" must open its screen, not the dashboard's catch-all. */
describe('Flexible License Management route (spec/001 §2)', () => {
  it('is where the sidebar link points', () => {
    const router = createAppRouter(new QueryClient());
    const link = PLATFORM_NAV.flatMap((e) => ('items' in e ? e.items : [e])).find(
      (l) => l.title === 'Flexible Licenses',
    );
    expect(link?.to).toBe('/dashboard/subscriptions/flexible_licenses');
    const matches = router.matchRoutes(link?.to ?? '', {});
    expect(matches.at(-1)?.routeId).toBe('/_authenticated/dashboard/subscriptions/flexible_licenses');
  });
});
