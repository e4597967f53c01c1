import { isClientError } from '@portal/client';
import { passkeyName } from '@portal/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { KeyRoundIcon, Loader2Icon } from 'lucide-react';
import * as React from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField, fieldProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/lib/auth';
import { serverFieldError } from '@/lib/server-field-error';
import { toast } from '@/lib/toast';
import { ENROLMENT_LINK_UNUSABLE, ROLE_LABELS } from '../admin-text';
import { enrolmentQueryOptions, enrolStaff } from '../api/admin-enrol';
import { AdminAuthCard } from './admin-auth-card';

/** A refusal of the link itself: unknown, used or expired (404), or not a link token at all (400). */
function linkRefused(err: unknown): boolean {
  return (
    isClientError(err) &&
    (err.status === 404 || serverFieldError(err, 'enrolment_token') !== undefined || err.kind === 'not_found')
  );
}

function nameIssue(name: string): string | undefined {
  const parsed = passkeyName.safeParse(name);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

function Unusable() {
  return (
    <Alert variant="destructive">
      <AlertTitle>This link cannot be used</AlertTitle>
      <AlertDescription>{ENROLMENT_LINK_UNUSABLE}</AlertDescription>
    </Alert>
  );
}

/** A browser's refusal of the passkey prompt, as the person reads it. */
function promptFailure(err: unknown): string | undefined {
  const name = err instanceof Error ? err.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError')
    return 'No passkey was registered: the prompt was closed or timed out. Try again.';
  if (name === 'InvalidStateError')
    return 'This device already holds a passkey for this account. Use another device or password manager.';
  return undefined;
}

function EnrolForm({ token }: { token: string }) {
  const auth = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const link = useQuery(enrolmentQueryOptions(token));
  const [name, setName] = React.useState('');
  const [touched, setTouched] = React.useState(false);
  const [serverNameError, setServerNameError] = React.useState<string>();
  const [failure, setFailure] = React.useState<string>();
  const [refused, setRefused] = React.useState(false);
  const [busy, setBusy] = React.useState(false);
  const nameError = serverNameError ?? (touched ? nameIssue(name) : undefined);

  if (refused || (link.isError && linkRefused(link.error))) return <Unusable />;
  if (link.isError)
    return (
      <Alert variant="destructive">
        <AlertTitle>The link could not be checked</AlertTitle>
        <AlertDescription className="grid gap-3">
          <p>{link.error instanceof Error ? link.error.message : 'Please try again.'}</p>
          <Button variant="outline" size="sm" onClick={() => void link.refetch()}>
            Try again
          </Button>
        </AlertDescription>
      </Alert>
    );
  if (!link.data)
    return (
      <div className="grid gap-3" role="status" aria-label="Checking the link">
        <Skeleton className="h-5 w-3/4" />
        <Skeleton className="h-9 w-full" />
      </div>
    );
  const { email, role, options } = link.data;
  const roleLabel = role in ROLE_LABELS ? ROLE_LABELS[role as keyof typeof ROLE_LABELS] : role;

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTouched(true);
    setServerNameError(undefined);
    if (nameIssue(name) || busy) return;
    setBusy(true);
    setFailure(undefined);
    try {
      const answer = await enrolStaff({ token, name: name.trim(), options });
      await auth.signIn(answer.token_pair, answer.user, false);
      toast.success('Passkey registered', { description: 'You are signed in to the back office.' });
      await navigate({ to: '/admin', replace: true });
    } catch (err) {
      if (linkRefused(err) && !serverFieldError(err, 'name')) {
        setRefused(true);
        return;
      }
      const onName = serverFieldError(err, 'name');
      if (onName) setServerNameError(onName);
      else setFailure(promptFailure(err) ?? (err instanceof Error && err.message ? err.message : 'Please try again.'));
      // The challenge may be spent: the next try asks for a fresh one.
      void queryClient.invalidateQueries({ queryKey: enrolmentQueryOptions(token).queryKey });
    } finally {
      setBusy(false);
    }
  }

  const supported = typeof window.PublicKeyCredential === 'function';
  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-muted-foreground">For</dt>
        <dd className="font-medium break-all" data-testid="enrol-email">
          {email}
        </dd>
        <dt className="text-muted-foreground">Role</dt>
        <dd className="font-medium" data-testid="enrol-role">
          {roleLabel}
        </dd>
      </dl>
      <p className="text-sm text-muted-foreground">
        Register a passkey on this device or your password manager: it is how you will sign in to the back office.
      </p>
      {failure && (
        <Alert variant="destructive">
          <AlertTitle>Passkey not registered</AlertTitle>
          <AlertDescription>{failure}</AlertDescription>
        </Alert>
      )}
      <FormField id="enrol-passkey-name" label="Passkey name" error={nameError} hint="For example: Work laptop.">
        <Input
          {...fieldProps('enrol-passkey-name', nameError)}
          aria-describedby={nameError ? 'enrol-passkey-name-error' : 'enrol-passkey-name-hint'}
          autoComplete="off"
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setTouched(true);
            setServerNameError(undefined);
          }}
        />
      </FormField>
      {!supported && (
        <p className="text-sm text-destructive">This browser cannot use passkeys: open the link in one that can.</p>
      )}
      <Button type="submit" disabled={busy || !supported} aria-busy={busy || undefined}>
        {busy ? <Loader2Icon className="animate-spin" aria-hidden /> : <KeyRoundIcon aria-hidden />}
        Register a passkey
      </Button>
    </form>
  );
}

/** /admin/enrol?token=…: a staff member's first step, registering the passkey they will sign in with. */
export function AdminEnrolPage({ token }: { token: string | undefined }) {
  return (
    <AdminAuthCard title="Join the back office">{token ? <EnrolForm token={token} /> : <Unusable />}</AdminAuthCard>
  );
}
