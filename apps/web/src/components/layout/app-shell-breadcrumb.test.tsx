import { QueryClient } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { act, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createAppRouter } from '@/router';
import { AppShellBreadcrumb } from './app-shell-breadcrumb';

// Some screens read the theme and screen size when their modules load; jsdom has no media queries.
vi.hoisted(() => {
  window.matchMedia = (query: string) =>
    ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }) as unknown as MediaQueryList;
});

/** The app's routes, as the breadcrumb sees them: the pages are those the router knows by path. */
const appRouter = createAppRouter(new QueryClient());
const PAGES = Object.keys(appRouter.routesByPath);

async function renderAt(path: string) {
  vi.stubGlobal('scrollTo', () => {});
  const root = createRootRoute({ component: AppShellBreadcrumb });
  // The same paths as the app's route tree, each with the breadcrumb alone on screen.
  const routes = PAGES.filter((p) => p !== '/').map((p) => createRoute({ getParentRoute: () => root, path: p }));
  const router = createRouter({
    routeTree: root.addChildren(routes),
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  render(<RouterProvider router={router} />);
  await act(async () => {
    await router.load();
  });
}

describe('breadcrumb (spec/000 §2 Sidebar)', () => {
  it('the app has pages at /dashboard and /dashboard/robot/add, and none at /dashboard/robot', () => {
    expect(PAGES).toContain('/dashboard');
    expect(PAGES).toContain('/dashboard/robot/add');
    expect(PAGES).not.toContain('/dashboard/robot');
    expect(PAGES).not.toContain('/dashboard/subscriptions');
  });

  it.each([
    ['/dashboard/robot/add', ['Dashboard'], ['Robot']],
    ['/dashboard/subscriptions/flexible_licenses', ['Dashboard'], ['Subscriptions']],
  ])('%s: %j are links, %j plain text', async (path, links, texts) => {
    await renderAt(path);
    const nav = screen.getByRole('navigation', { name: 'Breadcrumb' });
    for (const name of links) expect(within(nav).getByRole('link', { name }).getAttribute('href')).toBe('/dashboard');
    for (const name of texts) {
      expect(within(nav).queryByRole('link', { name })).toBeNull();
      expect(within(nav).getByText(name)).toBeTruthy();
    }
  });
});
