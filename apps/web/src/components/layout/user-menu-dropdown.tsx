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
import { env } from '@/config/env';
import { useAuth } from '@/lib/auth';
import { type Arrival, useMenuArrival } from '@/lib/on-demand';
import { THEME_PREFERENCES, type ThemePreference } from '@/lib/theme/theme-preference';
import { useTheme } from '@/lib/theme/theme-provider';
import { cn } from '@/lib/utils';
import { blurredEmail, displayNameOf, type MenuUser, UserAvatar, UserMenuButton } from './user-menu-button';

/**
 * The user menu (spec/000 §2 User menu), fetched on first use by user-menu.tsx; `arrival`: how
 * its stand-in button was left (lib/on-demand.ts).
 */

const THEME_LABELS: Record<ThemePreference, { label: string; icon: typeof SunIcon }> = {
  light: { label: 'Light', icon: SunIcon },
  dark: { label: 'Dark', icon: MoonIcon },
  system: { label: 'System', icon: MonitorIcon },
};

export function UserMenuDropdown({ user, arrival }: { user: MenuUser; arrival: Arrival }) {
  const { logout } = useAuth();
  const { theme, setTheme } = useTheme();
  const { trigger, onContentFocus } = useMenuArrival(arrival);
  const displayName = displayNameOf(user);

  return (
    <DropdownMenu defaultOpen={arrival.open}>
      <DropdownMenuTrigger asChild>
        <UserMenuButton user={user} ref={trigger} />
      </DropdownMenuTrigger>
      <DropdownMenuContent onFocus={onContentFocus} align="end" className="w-64">
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
