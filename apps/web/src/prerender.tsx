import { createMemoryHistory } from '@tanstack/react-router';
import { renderToString } from 'react-dom/server';
import { createApp } from './app';
import { COOKIE_NOTICE_COOKIE } from './features/cookies/cookie-notice-state';
import { renderingCookies } from './lib/cookies';

/**
 * The build's side of prerendering (docs/decisions/038): the markup of a public page's first view,
 * signed out, as the browser's first render will draw it, so the page paints from the HTML and the
 * app then hydrates it. Bundled for Node by apps/web/prerender.ts with the browser's build of every
 * library (TanStack Router then renders the same tree it renders in the browser).
 */
export async function prerenderPage(url: string, cookies: string): Promise<string> {
  renderingCookies(cookies);
  const { router, queryClient, element } = createApp({
    history: createMemoryHistory({ initialEntries: [url] }),
    origin: 'http://localhost',
  });
  router.update({ ...router.options, context: { queryClient, auth: { status: 'unauthenticated', user: null } } });
  await router.load();
  const location = router.state.location;
  return JSON.stringify({ href: location.href, html: renderToString(element) });
}

export interface PrerenderedPage {
  /** the address the page is prerendered at (its canonical search included) */
  url: string;
  /** the path it is served for, and the query strings (without '?') that show the same first view */
  path: string;
  queries: string[];
  /** the first view differs by a cookie: the variant for a request that carries it */
  cookieVariant?: { cookie: string; value: string };
}

/** The pages the build prerenders: public, and the same for every signed-out visitor. */
export const PRERENDERED_PAGES: PrerenderedPage[] = [
  {
    url: '/auth/login?target=portal',
    path: '/auth/login',
    queries: ['', 'target=portal'],
    cookieVariant: { cookie: COOKIE_NOTICE_COOKIE, value: 'true' },
  },
];
