import { Link } from '@tanstack/react-router';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/lib/auth';
import { onDemand, useStandInTrigger } from '@/lib/on-demand';
import { UserMenuButton } from './user-menu-button';

export { UserAvatar } from './user-menu-button';

/** The menu itself (Radix's dropdown menu) is fetched when the button is pointed at, focused or pressed. */
const userMenuDropdown = onDemand(() => import('./user-menu-dropdown'));

export function UserMenu() {
  const { status, user } = useAuth();
  const loaded = userMenuDropdown.useModule();
  const standIn = useStandInTrigger(userMenuDropdown, 'pointerdown');

  if (status !== 'authenticated' || !user) {
    return (
      <Button asChild size="sm">
        <Link to="/auth/login" search={{ target: 'portal' }}>
          Sign in
        </Link>
      </Button>
    );
  }

  if (loaded) return <loaded.UserMenuDropdown user={user} arrival={standIn.arrival()} />;
  // The same button, as the menu's trigger renders it while closed.
  return (
    <UserMenuButton user={user} aria-haspopup="menu" aria-expanded={false} data-state="closed" {...standIn.handlers} />
  );
}
