import { PRODUCT_NAME } from '@portal/contract';

/** "Robot Portal | Profile" (spec/000 §2 Page titles); no screen name gives the product name alone. */
export function formatPageTitle(screenName?: string | null): string {
  const name = screenName?.trim();
  return name ? `${PRODUCT_NAME} | ${name}` : PRODUCT_NAME;
}

export const LOADING_PAGE_TITLE = formatPageTitle('Loading...');

/** A route's `head()`: its screen name as the tab title (rendered by <HeadContent/> in the root route). */
export function pageHead(screenName?: string) {
  return { meta: [{ title: formatPageTitle(screenName) }] };
}

/**
 * The page's own <title> (index.html's) names the tab until the app draws. React 19 adopts it only
 * when it hydrates a page; drawing afresh, it puts a <title> of its own into the head beside it. So
 * the page's title goes as soon as another is there: a document has one <title> (HTML allows one,
 * and a second is what some assistive tools read).
 */
export function handPageTitleToReact(head: HTMLHeadElement): void {
  const pageTitle = head.querySelector('title');
  if (!pageTitle) return;
  const observer = new MutationObserver(() => {
    if ([...head.querySelectorAll('title')].some((title) => title !== pageTitle)) {
      pageTitle.remove();
      observer.disconnect();
    }
  });
  observer.observe(head, { childList: true });
}
