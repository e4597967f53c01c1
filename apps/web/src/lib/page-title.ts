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
