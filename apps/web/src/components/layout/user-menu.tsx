import { Link } from '@tanstack/react-router';
import {
  ExternalLinkIcon,
  LifeBuoyIcon,
  LogOutIcon,
  MonitorIcon,
  MoonIcon,
  ShieldIcon,
  SunIcon,
  UserIcon,
} from 'lucide-react';
import * as React from 'react';
import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { AVATAR_DEFAULT_SIZE } from '@/config/constants';
import { env } from '@/config/env';
import { useAuth } from '@/lib/auth';
import { THEME_PREFERENCES, type ThemePreference } from '@/lib/theme/theme-preference';
import { useTheme } from '@/lib/theme/theme-provider';
import { cn } from '@/lib/utils';
import { avatarUrl, emailHash, initialsOf } from './user-menu-avatar';

const THEME_LABELS: Record<ThemePreference, { label: string; icon: typeof SunIcon }> = {
  light: { label: 'Light', icon: SunIcon },
  dark: { label: 'Dark', icon: MoonIcon },
  system: { label: 'System', icon: MonitorIcon },
};

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
const blurredEmail = 'blur-[3px] transition-[filter] duration-150 hover:blur-none';

export function UserMenu() {
  const { status, user, logout } = useAuth();
  const { theme, setTheme } = useTheme();

  if (status !== 'authenticated' || !user) {
    return (
      <Button asChild size="sm">
        <Link to="/auth/login" search={{ target: 'portal' }}>
          Sign in
        </Link>
      </Button>
    );
  }

  const displayName = user.name.trim() || user.email;

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" className="group h-10 gap-2 px-1.5 md:pr-3" data-testid="user-menu-trigger">
          <span className="sr-only">User menu</span>
          <UserAvatar name={user.name} email={user.email} className="size-8" />
          <span className="hidden max-w-48 min-w-0 text-left leading-tight md:grid">
            <span className="truncate text-sm font-medium">{displayName}</span>
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
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64">
        <DropdownMenuLabel className="flex items-center gap-2 font-normal">
          <UserAvatar name={user.name} email={user.email} className="size-9" />
          <span className="grid min-w-0 leading-tight">
            <span className="truncate font-medium">{displayName}</span>
            <span className={cn('truncate text-xs text-muted-foreground', blurredEmail)}>{user.email}</span>
          </span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuGroup>
          <DropdownMenuItem asChild>
            <Link to="/dashboard/user/profile">
              <UserIcon aria-hidden />
              Profile
            </Link>
          </DropdownMenuItem>
          <DropdownMenuItem asChild>
            <Link to="/dashboard/privacy-policy">
              <ShieldIcon aria-hidden />
              Privacy Policy
            </Link>
          </DropdownMenuItem>
          <DropdownMenuItem asChild>
            <a href={env.supportUrl} target="_blank" rel="noreferrer">
              <LifeBuoyIcon aria-hidden />
              Get Support
              <ExternalLinkIcon aria-hidden className="ml-auto size-3.5" />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          </DropdownMenuItem>
        </DropdownMenuGroup>
        <DropdownMenuSeparator />
        <DropdownMenuLabel className="text-xs font-medium text-muted-foreground" id="user-menu-theme">
          Theme
        </DropdownMenuLabel>
        <DropdownMenuRadioGroup
          aria-labelledby="user-menu-theme"
          value={theme}
          onValueChange={(value) => setTheme(THEME_PREFERENCES.find((t) => t === value) ?? 'system')}
        >
          {THEME_PREFERENCES.map((t) => {
            const { label, icon: Icon } = THEME_LABELS[t];
            return (
              <DropdownMenuRadioItem key={t} value={t}>
                <Icon aria-hidden />
                {label}
              </DropdownMenuRadioItem>
            );
          })}
        </DropdownMenuRadioGroup>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => void logout()}>
          <LogOutIcon aria-hidden />
          Log out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
