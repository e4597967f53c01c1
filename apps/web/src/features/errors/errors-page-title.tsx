import * as React from 'react';
import { formatPageTitle, LOADING_PAGE_TITLE } from './errors-details';

/** Sets the tab title to "Robot Portal | <screen>", or the loading title while `pending`. */
export function usePageTitle(screenName: string, options: { pending?: boolean } = {}): void {
  const title = options.pending ? LOADING_PAGE_TITLE : formatPageTitle(screenName);
  React.useEffect(() => {
    document.title = title;
  }, [title]);
  // A screen that sets no title of its own must not inherit the previous screen's.
  React.useEffect(
    () => () => {
      document.title = formatPageTitle();
    },
    [],
  );
}

export function PageTitle({ name, pending }: { name: string; pending?: boolean }) {
  usePageTitle(name, { pending });
  return null;
}

/** For pending components: the loading title while a route's data is on its way. */
export function LoadingPageTitle() {
  React.useEffect(() => {
    document.title = LOADING_PAGE_TITLE;
    // Once loaded, a screen without a title of its own (the dashboard) must not keep "Loading...".
    // React runs this before the next screen's effects, so a screen that names itself still wins.
    return () => {
      document.title = formatPageTitle();
    };
  }, []);
  return null;
}
