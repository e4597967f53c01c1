import { type Permission, roleCan } from '@portal/contract';
import { Link, useNavigate } from '@tanstack/react-router';
import { LogOutIcon, ShieldCheckIcon, TriangleAlertIcon } from 'lucide-react';
import type * as React from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/lib/auth';
import { LEGACY_KEY_WARNING, ROLE_LABELS } from '../admin-text';
import type { StaffMe } from '../api/admin-me';

type ConsolePath =
  | '/admin'
  | '/admin/support'
  | '/admin/customers'
  | '/admin/staff'
  | '/admin/api-keys'
  | '/admin/audit'
  | '/admin/releases';

/** A screen's link: every screen but the overview is under the console's splat route (routes/admin/_console/$.tsx). */
export function consoleLink(to: ConsolePath) {
  return to === '/admin' ? { to } : ({ to: '/admin/$', params: { _splat: to.slice('/admin/'.length) } } as const);
}

/** The console's screens, each shown to the roles that may use it (the server still decides every call). */
export const CONSOLE_NAV: { to: ConsolePath; label: string; permission?: Permission }[] = [
  { to: '/admin', label: 'Overview' },
  { to: '/admin/support', label: 'Support', permission: 'support.answer' },
  { to: '/admin/customers', label: 'Customers', permission: 'customers.read' },
  { to: '/admin/staff', label: 'Staff', permission: 'staff.manage' },
  { to: '/admin/api-keys', label: 'API keys', permission: 'api_keys.manage' },
  { to: '/admin/audit', label: 'Audit trail', permission: 'audit.read' },
  { to: '/admin/releases', label: 'Releases', permission: 'customers.read' },
];

export function consoleNavFor(me: Pick<StaffMe, 'role'>) {
  return CONSOLE_NAV.filter((item) => !item.permission || roleCan(me.role, item.permission));
}

/**
 * The back office's frame: who is signed in and with which role, the screens that role may open, a
 * sign-out, and the OPERATOR_TOKEN warning while the shared token is set.
 */
export function AdminFrame({ me, children }: { me: StaffMe; children: React.ReactNode }) {
  const auth = useAuth();
  const navigate = useNavigate();

  async function signOut() {
    await auth.logout();
    await navigate({ to: '/admin/sign-in', replace: true });
  }

  return (
    <div className="flex min-h-svh flex-col bg-background">
      <a
        href="#admin-main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-background focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <header className="border-b bg-card">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-3 px-4 py-3">
          <Link to="/admin" className="flex items-center gap-2 font-semibold">
            <ShieldCheckIcon className="size-5" aria-hidden />
            Back office
          </Link>
          <nav aria-label="Console" className="order-last w-full sm:order-none sm:w-auto sm:flex-1">
            <ul className="flex flex-wrap gap-1">
              {consoleNavFor(me).map((item) => (
                <li key={item.to}>
                  <Link
                    {...consoleLink(item.to)}
                    activeOptions={{ exact: item.to === '/admin' }}
                    className="inline-flex h-8 items-center rounded-md px-3 text-sm text-muted-foreground hover:bg-accent hover:text-accent-foreground aria-[current=page]:bg-accent aria-[current=page]:font-medium aria-[current=page]:text-foreground"
                  >
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <div className="ml-auto flex min-w-0 items-center gap-3">
            <p className="grid min-w-0 text-right text-sm leading-tight">
              <span className="truncate" data-testid="admin-staff-email">
                {me.email || me.name}
              </span>
              <span className="sr-only">Role:</span>
            </p>
            <Badge variant="secondary" data-testid="admin-staff-role">
              {ROLE_LABELS[me.role]}
            </Badge>
            <Button variant="outline" size="sm" onClick={() => void signOut()}>
              <LogOutIcon aria-hidden />
              Sign out
            </Button>
          </div>
        </div>
      </header>
      {me.legacy_key_set && (
        <div className="mx-auto w-full max-w-6xl px-4 pt-4">
          <Alert
            role="status"
            className="border-amber-500/60 bg-amber-50 text-amber-950 dark:bg-amber-950/40 dark:text-amber-100"
          >
            <TriangleAlertIcon aria-hidden />
            <AlertTitle>Shared operator token in use</AlertTitle>
            <AlertDescription className="text-amber-950 dark:text-amber-100">{LEGACY_KEY_WARNING}</AlertDescription>
          </Alert>
        </div>
      )}
      <main
        id="admin-main"
        tabIndex={-1}
        className="mx-auto grid w-full max-w-6xl flex-1 grid-cols-1 content-start gap-6 px-4 py-6"
      >
        {children}
      </main>
    </div>
  );
}
