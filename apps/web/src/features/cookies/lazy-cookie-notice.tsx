import * as React from 'react';
import { documentCookies } from '@/lib/cookies';
import { hasAcknowledgedCookies } from './cookie-notice-state';

// Loaded on demand: the signed-in shell must not pull the notice (and what it imports) into the
// chunks the sign-in page shares with it (docs/decisions/044's groups; the page budgets).
const CookieNotice = React.lazy(() => import('./cookie-notice').then((m) => ({ default: m.CookieNotice })));

/**
 * The cookie notice for the signed-in shell (spec/000 §2: "Shown until an acknowledgement cookie
 * exists"): nothing is fetched once the cookie exists, which is every visit after the first OK.
 */
export function LazyCookieNotice() {
  const [needed] = React.useState(() => !hasAcknowledgedCookies(documentCookies()));
  if (!needed) return null;
  return (
    <React.Suspense fallback={null}>
      <CookieNotice />
    </React.Suspense>
  );
}
