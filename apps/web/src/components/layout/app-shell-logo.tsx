import { PRODUCT_NAME } from '@portal/contract';
import { useNavigate } from '@tanstack/react-router';
import * as React from 'react';
import { LOGO_CLICK_DELAY_MS, LOGO_SPIN_MS } from '@/config/constants';
import { cn } from '@/lib/utils';
import { registerLogoClick } from './app-shell-logo-clicks';

/**
 * One click goes to the dashboard after a short delay; that delay is what lets a third click turn
 * the visit into a spin instead (spec/000 §2 Sidebar). Motion-reduced users get no animation.
 */
export function AppShellLogo({ onNavigate, className }: { onNavigate?: () => void; className?: string }) {
  const navigate = useNavigate();
  const [spinning, setSpinning] = React.useState(false);
  const clicks = React.useRef(0);
  const navTimer = React.useRef<number | undefined>(undefined);
  const spinTimer = React.useRef<number | undefined>(undefined);

  React.useEffect(
    () => () => {
      window.clearTimeout(navTimer.current);
      window.clearTimeout(spinTimer.current);
    },
    [],
  );

  const onClick = (event: React.MouseEvent<HTMLAnchorElement>) => {
    // Let the browser open a new tab or window as usual.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    window.clearTimeout(navTimer.current);
    const next = registerLogoClick(clicks.current);
    clicks.current = next.count;
    if (next.spin) {
      setSpinning(true);
      window.clearTimeout(spinTimer.current);
      spinTimer.current = window.setTimeout(() => setSpinning(false), LOGO_SPIN_MS);
      return;
    }
    navTimer.current = window.setTimeout(() => {
      clicks.current = 0;
      onNavigate?.();
      void navigate({ to: '/dashboard' });
    }, LOGO_CLICK_DELAY_MS);
  };

  return (
    <a
      href="/dashboard"
      onClick={onClick}
      aria-label={`${PRODUCT_NAME}, go to dashboard`}
      className={cn(
        'flex min-w-0 items-center gap-2 rounded-md p-1 font-semibold group-data-[collapsible=icon]:p-0',
        className,
      )}
    >
      <img
        src="/favicon.svg"
        alt=""
        width={32}
        height={32}
        data-spinning={spinning || undefined}
        className={cn('size-8 shrink-0', spinning && 'motion-safe:animate-spin')}
      />
      <span className="truncate group-data-[collapsible=icon]:hidden">{PRODUCT_NAME}</span>
    </a>
  );
}
