import { Link } from '@tanstack/react-router';
import { CookieIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { documentCookies } from '@/lib/cookies';
import { cn } from '@/lib/utils';
import { acknowledgementCookie, hasAcknowledgedCookies } from './cookie-notice-state';

/** The channel on which one tab's OK tells the others to hide their notice. */
export const COOKIE_NOTICE_CHANNEL = 'cookie-notice';
/** The storage key whose change tells the other tabs too (a storage event), should a message be lost. */
export const COOKIE_NOTICE_SIGNAL = 'cookie-notice-acknowledged';

/**
 * The sending end, kept open: a channel closed right after postMessage can lose the message in
 * Chromium (the other tab then kept its notice now and then).
 */
let sender: BroadcastChannel | undefined;

/**
 * Whether the notice still shows. The cookie is the truth; other tabs learn of an OK at once over a
 * BroadcastChannel and a storage event, and a tab that missed both reads the cookie again when it
 * regains focus or becomes visible.
 */
function useCookieNoticeVisible(): [boolean, () => void] {
  const [visible, setVisible] = React.useState(() => !hasAcknowledgedCookies(documentCookies()));

  React.useEffect(() => {
    if (!visible) return;
    const recheck = () => {
      if (hasAcknowledgedCookies(documentCookies())) setVisible(false);
    };
    const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(COOKIE_NOTICE_CHANNEL);
    channel?.addEventListener('message', recheck);
    window.addEventListener('focus', recheck);
    window.addEventListener('storage', recheck);
    document.addEventListener('visibilitychange', recheck);
    return () => {
      channel?.close();
      window.removeEventListener('focus', recheck);
      window.removeEventListener('storage', recheck);
      document.removeEventListener('visibilitychange', recheck);
    };
  }, [visible]);

  const acknowledge = React.useCallback(() => {
    // biome-ignore lint/suspicious/noDocumentCookie: built by serializeCookie; the Cookie Store API is not in every browser we support.
    document.cookie = acknowledgementCookie(window.location.protocol === 'https:');
    setVisible(false);
    if (typeof BroadcastChannel !== 'undefined') {
      sender ??= new BroadcastChannel(COOKIE_NOTICE_CHANNEL);
      sender.postMessage('acknowledged');
    }
    try {
      localStorage.setItem(COOKIE_NOTICE_SIGNAL, String(Date.now()));
    } catch {
      // Storage refused (a private mode): the channel and the focus check remain.
    }
  }, []);

  return [visible, acknowledge];
}

/**
 * Shown until the user acknowledges it; the acknowledgement is itself a cookie (spec/000 §2). It sits
 * in the page's flow, never over it, so it covers no control on any width.
 */
export function CookieNotice({ className }: { className?: string }) {
  const [visible, acknowledge] = useCookieNoticeVisible();
  if (!visible) return null;

  return (
    <section
      aria-label="Cookie notice"
      data-testid="cookie-notice"
      className={cn(
        'flex flex-col gap-3 rounded-lg border bg-card p-4 text-sm text-card-foreground shadow-sm sm:flex-row sm:items-center',
        className,
      )}
    >
      <CookieIcon aria-hidden className="hidden size-5 shrink-0 text-muted-foreground sm:block" />
      <p className="flex-1 text-muted-foreground">
        We use a few essential cookies and similar browser storage to keep you signed in and to remember your
        preferences, such as the sidebar layout and theme. We do not use advertising or tracking cookies. Read more in
        our{' '}
        <Link to="/privacy-policy" className="font-medium text-primary underline-offset-4 hover:underline">
          Privacy Policy
        </Link>
        .
      </p>
      <Button size="sm" className="self-end sm:self-auto" onClick={acknowledge}>
        OK
      </Button>
    </section>
  );
}
