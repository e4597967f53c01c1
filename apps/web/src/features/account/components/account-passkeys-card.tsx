import { type Passkey, passkeyName } from '@portal/contract';
import { KeyRoundIcon, Loader2Icon } from 'lucide-react';
import * as React from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { FormField, fieldProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { ERROR_TOAST_MS } from '@/config/constants';
import { formatDateGB, formatDateTime } from '@/lib/dates';
import { toast } from '@/lib/toast';
import { passkeyAddFailure } from '../account-security';
import {
  passkeysSupported,
  useAddPasskeyMutation,
  usePasskeys,
  useRemovePasskeyMutation,
  useRenamePasskeyMutation,
} from '../api/passkeys';
import { AccountSecurityLoadError } from './account-security-load-error';

/** The first message of the passkey name rule (the server checks the same), or undefined. */
function nameIssue(name: string): string | undefined {
  const parsed = passkeyName.safeParse(name);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

/**
 * A dialog with one field, the passkey's name: adding a passkey and renaming one. The name is
 * checked live once the person has typed or submitted.
 */
function NameDialog({
  trigger,
  title,
  description,
  submitLabel,
  initialName,
  fieldId,
  onSubmit,
}: {
  trigger: React.ReactNode;
  title: string;
  description: string;
  submitLabel: string;
  initialName: string;
  fieldId: string;
  /** answers whether the dialog may close */
  onSubmit: (name: string) => Promise<boolean>;
}) {
  const [open, setOpen] = React.useState(false);
  const [name, setName] = React.useState(initialName);
  const [touched, setTouched] = React.useState(false);
  const [busy, setBusy] = React.useState(false);
  const error = touched ? nameIssue(name) : undefined;

  function onOpenChange(next: boolean) {
    if (busy) return;
    setOpen(next);
    if (next) {
      setName(initialName);
      setTouched(false);
    }
  }

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTouched(true);
    if (nameIssue(name) || busy) return;
    setBusy(true);
    try {
      if (await onSubmit(name.trim())) setOpen(false);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent>
        <form noValidate onSubmit={submit} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          <FormField id={fieldId} label="Passkey name" error={error} hint="For example: Work laptop, or My phone.">
            <Input
              {...fieldProps(fieldId, error)}
              aria-describedby={error ? `${fieldId}-error` : `${fieldId}-hint`}
              autoComplete="off"
              value={name}
              onChange={(e) => {
                setName(e.target.value);
                setTouched(true);
              }}
            />
          </FormField>
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline" disabled={busy}>
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" disabled={busy} aria-busy={busy || undefined}>
              {busy && <Loader2Icon className="animate-spin" aria-hidden />}
              {submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function RemovePasskey({ passkey, email }: { passkey: Passkey; email: string }) {
  const remove = useRemovePasskeyMutation(email);

  async function confirm() {
    try {
      await remove.mutateAsync(passkey.passkey_id);
      toast.success('Passkey Removed', { description: `"${passkey.name}" can no longer sign in to your account.` });
    } catch {
      toast.error('Failed to remove the passkey', { description: 'Please try again.', duration: ERROR_TOAST_MS });
      return false;
    }
  }

  return (
    <ConfirmDialog
      trigger={
        <Button variant="outline" size="sm" aria-label={`Remove passkey ${passkey.name}`}>
          Remove
        </Button>
      }
      title="Remove this passkey?"
      description={`"${passkey.name}" will no longer sign in to your account. You can also delete it from the device or password manager that keeps it.`}
      confirmLabel="Remove passkey"
      onConfirm={confirm}
    />
  );
}

function PasskeyRow({ passkey, email }: { passkey: Passkey; email: string }) {
  const rename = useRenamePasskeyMutation(email);
  return (
    <li className="flex flex-wrap items-center gap-3 py-3 first:pt-0 last:pb-0">
      <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-muted text-muted-foreground">
        <KeyRoundIcon className="size-4" aria-hidden />
      </span>
      <div className="grid min-w-48 flex-1 gap-0.5">
        <p className="flex flex-wrap items-center gap-2 font-medium break-all">
          {passkey.name}
          {passkey.synced && <Badge variant="outline">Synced</Badge>}
        </p>
        <p className="text-sm text-muted-foreground">
          Added {formatDateGB(Date.parse(passkey.created_at))}
          {' · '}
          {passkey.last_used_at ? `Last used ${formatDateTime(Date.parse(passkey.last_used_at))}` : 'Not used yet'}
        </p>
      </div>
      <div className="flex gap-2">
        <NameDialog
          trigger={
            <Button variant="outline" size="sm" aria-label={`Rename passkey ${passkey.name}`}>
              Rename
            </Button>
          }
          title="Rename passkey"
          description="The name only helps you tell your passkeys apart."
          submitLabel="Save name"
          initialName={passkey.name}
          fieldId={`passkey-name-${passkey.passkey_id}`}
          onSubmit={async (name) => {
            try {
              await rename.mutateAsync({ passkeyId: passkey.passkey_id, name });
              toast.success('Passkey Renamed', { description: `It is now called "${name}".` });
              return true;
            } catch {
              toast.error('Failed to rename the passkey', {
                description: 'Please try again.',
                duration: ERROR_TOAST_MS,
              });
              return false;
            }
          }}
        />
        <RemovePasskey passkey={passkey} email={email} />
      </div>
    </li>
  );
}

/** Passkeys: add (named), rename, remove (docs/decisions/032). */
export function AccountPasskeysCard({ email }: { email: string }) {
  const passkeys = usePasskeys(email);
  const add = useAddPasskeyMutation(email);
  const supported = passkeysSupported();

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
        <div className="grid min-w-60 flex-1 gap-1.5">
          <CardTitle>Passkeys</CardTitle>
          <CardDescription>Sign in with your fingerprint, face or device PIN instead of your password.</CardDescription>
        </div>
        <NameDialog
          trigger={<Button disabled={!supported}>Add a passkey</Button>}
          title="Add a passkey"
          description="Name it after the device or password manager that will keep it. Your browser then asks you to confirm with your fingerprint, face or PIN."
          submitLabel="Continue"
          initialName=""
          fieldId="passkey-new-name"
          onSubmit={async (name) => {
            try {
              const created = await add.mutateAsync(name);
              toast.success('Passkey Added', { description: `"${created.name}" can now sign you in.` });
              return true;
            } catch (err) {
              toast.error('Passkey not added', { description: passkeyAddFailure(err), duration: ERROR_TOAST_MS });
              return false;
            }
          }}
        />
      </CardHeader>
      <CardContent className="grid gap-3">
        {!supported && <p className="text-sm text-muted-foreground">This browser cannot use passkeys.</p>}
        {passkeys.data ? (
          passkeys.data.length ? (
            <ul className="divide-y" aria-label="Passkeys">
              {passkeys.data.map((passkey) => (
                <PasskeyRow key={passkey.passkey_id} passkey={passkey} email={email} />
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">
              You have no passkeys yet. Add one to sign in without typing your password.
            </p>
          )
        ) : passkeys.isError ? (
          <AccountSecurityLoadError title="Your passkeys could not be loaded" onRetry={() => void passkeys.refetch()} />
        ) : (
          <div className="grid gap-3" role="status" aria-label="Loading your passkeys">
            <Skeleton className="h-12 w-full" />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
