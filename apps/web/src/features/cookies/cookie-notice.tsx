import { Link } from '@tanstack/react-router';
import { CookieIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { documentCookies } from '@/lib/cookies';
import { cn } from '@/lib/utils';
import { acknowledgementCookie, hasAcknowledgedCookies } from './cookie-notice-state';

/** Shown until the user acknowledges it; the acknowledgement is itself a cookie (spec/000 §2). */
export function CookieNotice({ className }: { className?: string }) {
  const [visible, setVisible] = React.useState(() => !hasAcknowledgedCookies(documentCookies()));
  if (!visible) return null;

  const acknowledge = () => {
    // biome-ignore lint/suspicious/noDocumentCookie: built by serializeCookie; the Cookie Store API is not in every browser we support.
    document.cookie = acknowledgementCookie(window.location.protocol === 'https:');
    setVisible(false);
  };

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
