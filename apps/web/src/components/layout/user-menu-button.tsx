import * as React from 'react';
import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { AVATAR_DEFAULT_SIZE } from '@/config/constants';
import { env } from '@/config/env';
import { cn } from '@/lib/utils';
import { avatarUrl, emailHash, initialsOf } from './user-menu-avatar';

/** The user menu's button and picture, shared by its stand-in (user-menu.tsx) and the menu (user-menu-dropdown.tsx). */

function useEmailHash(email: string): string | null {
  const [hash, setHash] = React.useState<{ email: string; hash: string | null } | null>(null);
  React.useEffect(() => {
    let cancelled = false;
    emailHash(email)
      .then((h) => {
        if (!cancelled) setHash({ email, hash: h });
      })
      .catch(() => {
        // No hash, no picture: the initials stay.
      });
    return () => {
      cancelled = true;
    };
  }, [email]);
  return hash?.email === email ? hash.hash : null;
}

/**
 * The user's picture from the avatar service, keyed by a hash so the address itself is not sent;
 * the initials show while it loads and whenever it fails.
 */
export function UserAvatar({
  name,
  email,
  size = AVATAR_DEFAULT_SIZE,
  className,
}: {
  name: string | null | undefined;
  email: string;
  size?: number;
  className?: string;
}) {
  const hash = useEmailHash(email);
  return (
    <Avatar className={className} aria-hidden>
      {hash && <AvatarImage src={avatarUrl(env.avatarBaseUrl, hash, size)} alt="" referrerPolicy="no-referrer" />}
      <AvatarFallback className="bg-primary font-semibold text-primary-foreground">
        {initialsOf(name, email)}
      </AvatarFallback>
    </Avatar>
  );
}

// The address stays readable only on purpose, so it is not exposed on a shared screen or a screenshot.
export const blurredEmail = 'blur-[3px] transition-[filter] duration-150 hover:blur-none';

export interface MenuUser {
  name: string;
  email: string;
}

export function displayNameOf(user: MenuUser): string {
  return user.name.trim() || user.email;
}

/** The menu's button: the picture, the name and the blurred address. */
export function UserMenuButton({ user, ...props }: React.ComponentProps<typeof Button> & { user: MenuUser }) {
  return (
    <Button variant="ghost" className="group h-10 gap-2 px-1.5 md:pr-3" data-testid="user-menu-trigger" {...props}>
      <span className="sr-only">User menu</span>
      <UserAvatar name={user.name} email={user.email} className="size-8" />
      <span className="hidden max-w-48 min-w-0 text-left leading-tight md:grid">
        <span className="truncate text-sm font-medium">{displayNameOf(user)}</span>
        <span
          className={cn(
            'truncate text-xs font-normal text-muted-foreground',
            blurredEmail,
            'group-hover:blur-none group-focus-visible:blur-none group-data-[state=open]:blur-none',
          )}
        >
          {user.email}
        </span>
      </span>
    </Button>
  );
}
