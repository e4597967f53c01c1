import type { SignInSession } from '@portal/contract';
import { Loader2Icon, MonitorIcon, SmartphoneIcon, TerminalSquareIcon } from 'lucide-react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { ERROR_TOAST_MS } from '@/config/constants';
import { formatDateTime } from '@/lib/dates';
import { toast } from '@/lib/toast';
import { sessionTitle } from '../account-security';
import { useRevokeOtherSessionsMutation, useRevokeSessionMutation, useSessions } from '../api/security-sessions';
import { AccountSecurityLoadError } from './account-security-load-error';

function SessionIcon({ session }: { session: SignInSession }) {
  const Icon =
    session.target === 'hub'
      ? TerminalSquareIcon
      : ['iOS', 'iPadOS', 'Android'].includes(session.os)
        ? SmartphoneIcon
        : MonitorIcon;
  return (
    <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-muted text-muted-foreground">
      <Icon className="size-4" aria-hidden />
    </span>
  );
}

function SessionRow({ session, email }: { session: SignInSession; email: string }) {
  const revoke = useRevokeSessionMutation(email);
  const title = sessionTitle(session);
  const lastUsed = formatDateTime(Date.parse(session.last_used_at));

  async function signOut() {
    try {
      await revoke.mutateAsync(session.sign_in_id);
      toast.success('Session Signed Out', { description: `${title} is signed out.` });
    } catch {
      toast.error('Failed to sign out the session', {
        description: 'It may have ended already. Please try again.',
        duration: ERROR_TOAST_MS,
      });
    }
  }

  return (
    <li className="flex flex-wrap items-center gap-3 py-3 first:pt-0 last:pb-0">
      <SessionIcon session={session} />
      <div className="grid min-w-48 flex-1 gap-0.5">
        <p className="flex flex-wrap items-center gap-2 font-medium">
          {title}
          {session.target === 'hub' && <Badge variant="outline">Hub</Badge>}
          {session.current && <Badge variant="secondary">This browser</Badge>}
        </p>
        <p className="text-sm text-muted-foreground">
          <span className="font-mono">{session.address || 'Unknown address'}</span>
          {' · '}Signed in {formatDateTime(Date.parse(session.started_at))}
          {' · '}Last active {lastUsed}
        </p>
      </div>
      {!session.current && (
        <Button
          variant="outline"
          size="sm"
          onClick={signOut}
          disabled={revoke.isPending}
          aria-busy={revoke.isPending || undefined}
          aria-label={`Sign out ${title}, last active ${lastUsed}`}
        >
          {revoke.isPending && <Loader2Icon className="animate-spin" aria-hidden />}
          Sign out
        </Button>
      )}
    </li>
  );
}

function SignOutEverywhereElse({ email, others }: { email: string; others: number }) {
  const mutation = useRevokeOtherSessionsMutation(email);

  async function confirm() {
    try {
      const revoked = await mutation.mutateAsync();
      toast.success('Signed Out Everywhere Else', {
        description: revoked === 1 ? '1 other session is signed out.' : `${revoked} other sessions are signed out.`,
      });
    } catch {
      toast.error('Failed to sign out the other sessions', {
        description: 'Please try again.',
        duration: ERROR_TOAST_MS,
      });
      return false;
    }
  }

  return (
    <ConfirmDialog
      trigger={
        <Button variant="outline" disabled={others === 0}>
          Sign out everywhere else
        </Button>
      }
      title="Sign out everywhere else?"
      description="Every other session of your account, on the portal and in the Hub, is signed out at once. This browser stays signed in."
      confirmLabel={`Sign out ${others === 1 ? '1 session' : `${others} sessions`}`}
      onConfirm={confirm}
    />
  );
}

/** Where you are signed in: every live session, the current one marked, a sign-out each (docs/decisions/033). */
export function AccountSessionsCard({ email }: { email: string }) {
  const sessions = useSessions(email);
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
        <div className="grid min-w-60 flex-1 gap-1.5">
          <CardTitle>Where you're signed in</CardTitle>
          <CardDescription>
            Your sessions on the portal and in the Hub. Sign out any you do not recognise, then change your password.
          </CardDescription>
        </div>
        {sessions.data && <SignOutEverywhereElse email={email} others={others} />}
      </CardHeader>
      <CardContent>
        {sessions.data ? (
          <>
            <ul className="divide-y" aria-label="Sessions">
              {sessions.data.map((session) => (
                <SessionRow key={session.sign_in_id} session={session} email={email} />
              ))}
            </ul>
            {others === 0 && <p className="mt-3 text-sm text-muted-foreground">You are not signed in anywhere else.</p>}
          </>
        ) : sessions.isError ? (
          <AccountSecurityLoadError title="Your sessions could not be loaded" onRetry={() => void sessions.refetch()} />
        ) : (
          <div className="grid gap-3" role="status" aria-label="Loading your sessions">
            <Skeleton className="h-12 w-full" />
            <Skeleton className="h-12 w-full" />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
