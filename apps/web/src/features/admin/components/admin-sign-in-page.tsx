import type { PublicUser, TokenPair } from '@portal/contract';
import { Link, useNavigate } from '@tanstack/react-router';
import { KeyRoundIcon, Loader2Icon } from 'lucide-react';
import * as React from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/lib/auth';
import { toast } from '@/lib/toast';
import { AdminAuthCard } from './admin-auth-card';

/** What a passkey sign-in ended with: a portal session, or the notice to show. */
export type PasskeyOutcome =
  | { ok: true; user: PublicUser; token_pair: TokenPair }
  | { ok: false; title: string; text: string };

/**
 * /admin/sign-in: staff sign in with a passkey only, since a staff role applies only in a passkey
 * session (a password would open no console). The sign-in itself is the portal's passkey sign-in,
 * which the route hands in.
 */
export function AdminSignInPage({
  signInWithPasskey,
  redirect,
}: {
  signInWithPasskey: () => Promise<PasskeyOutcome>;
  /** a console address to go back to */
  redirect?: string | undefined;
}) {
  const auth = useAuth();
  const navigate = useNavigate();
  const [busy, setBusy] = React.useState(false);
  const [notice, setNotice] = React.useState<{ title: string; text: string }>();
  const supported = typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

  async function signIn() {
    if (busy) return;
    setBusy(true);
    setNotice(undefined);
    try {
      const outcome = await signInWithPasskey();
      if (!outcome.ok) {
        setNotice({ title: outcome.title, text: outcome.text });
        return;
      }
      // Staff sessions are not remembered: they end with the browser tab's session storage.
      await auth.signIn(outcome.token_pair, outcome.user, false);
      toast.success('Signed in', { description: `Welcome back, ${outcome.user.name || outcome.user.email}.` });
      await navigate({ href: redirect ?? '/admin', replace: true });
    } finally {
      setBusy(false);
    }
  }

  return (
    <AdminAuthCard
      title="Staff sign-in"
      description="Sign in with the passkey you registered from your enrolment link. A password sign-in opens the customer portal, never the console."
    >
      {notice && (
        <Alert variant="destructive">
          <AlertTitle>{notice.title}</AlertTitle>
          <AlertDescription>{notice.text}</AlertDescription>
        </Alert>
      )}
      {!supported && <p className="text-sm text-muted-foreground">This browser cannot use passkeys.</p>}
      <Button onClick={() => void signIn()} disabled={busy || !supported} aria-busy={busy || undefined}>
        {busy ? <Loader2Icon className="animate-spin" aria-hidden /> : <KeyRoundIcon aria-hidden />}
        Sign in with a passkey
      </Button>
      <p className="text-sm text-muted-foreground">
        No passkey yet? Ask an admin for an enrolment link.{' '}
        <Link to="/auth/login" search={{ target: 'portal' }} className="text-primary underline underline-offset-4">
          Customer sign-in
        </Link>
      </p>
    </AdminAuthCard>
  );
}
