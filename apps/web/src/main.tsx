import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createApp } from './app';
import { startErrorReporting } from './lib/error-reporting';
import { handPageTitleToReact } from './lib/page-title';
import { readSession } from './lib/session';
import { warmStart } from './lib/warm-start';
import './styles.css';

const rootElement = document.getElementById('app');
if (!rootElement) throw new Error('no #app element');

/** Lets the browser run other tasks (input, paint) before the next step of the start. */
const yieldToBrowser = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The prerendered page is the app's once hydrated: it takes input (it was inert, so nothing pressed
 * or typed before was lost), its forms are the app's to send (index.html's head script), and the
 * field marked autofocus gets the focus the inert page could not give it.
 */
function live(container: HTMLElement) {
  container.removeAttribute('inert');
  container.removeAttribute('data-prerendered');
  if (document.activeElement === document.body) container.querySelector<HTMLElement>('[autofocus]')?.focus();
}

async function hydrate(container: HTMLElement) {
  // A page the build prerendered, signed out (docs/decisions/038): the page is already drawn, so
  // the start is split into tasks the browser can answer input between: the router, the route's
  // code and data, then the hydration, a transition React draws in slices. Its first render must
  // draw what the build drew, so the route is loaded first, as the prerendering did.
  await yieldToBrowser();
  const { router, queryClient, element } = createApp(undefined, () => live(container));
  router.update({ ...router.options, context: { queryClient, auth: { status: 'unauthenticated', user: null } } });
  await yieldToBrowser();
  await router.load();
  await yieldToBrowser();
  startTransition(() => void hydrateRoot(container, element));
}

startErrorReporting();
if (rootElement.hasAttribute('data-prerendered') && !readSession().refreshToken) void hydrate(rootElement);
else {
  // With a stored session the prerendered markup is not this visitor's page (a signed-in person is
  // sent on from sign-in): the head's script kept it hidden, and the app draws afresh.
  rootElement.replaceChildren();
  rootElement.removeAttribute('data-prerendered');
  rootElement.removeAttribute('inert');
  handPageTitleToReact(document.head);
  const { router, element } = createApp();
  warmStart(router);
  createRoot(rootElement).render(element);
}
