import { type ApiKeyView, OPERATOR_HEADER, type StaffRole } from '@portal/contract';
import { KeyRoundIcon, Loader2Icon } from 'lucide-react';
import * as React from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField, fieldProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { ERROR_TOAST_MS } from '@/config/constants';
import { serverFieldError } from '@/lib/server-field-error';
import { toast } from '@/lib/toast';
import { formatInstant, ROLE_LABELS } from '../admin-text';
import { useApiKeys, useCreateApiKeyMutation, useRevokeApiKeyMutation } from '../api/admin-api-keys';
import { AdminCopyField } from './admin-copy-field';
import { AdminLoadError, AdminLoadingRows } from './admin-load-error';
import { AdminRoleSelect } from './admin-role-select';
import { AdminTableRegion } from './admin-table-region';

/** The new key's secret, shown this once. */
function SecretOnce({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  return (
    <section
      aria-label="New API key"
      className="grid gap-3 rounded-md border border-amber-500/60 bg-amber-50 p-4 text-amber-950 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <p className="flex items-start gap-2 text-sm">
        <KeyRoundIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span>
          <strong>Copy the secret of "{name}" now: it is shown only once.</strong> It is stored as a hash, so nobody can
          show it again; if it is lost, revoke the key and create another. Scripts send it as the{' '}
          <code>{OPERATOR_HEADER}</code> header.
        </span>
      </p>
      <AdminCopyField id="api-key-secret" label="Secret" value={secret} />
      <Button type="button" variant="outline" className="w-fit" onClick={onDone}>
        I have copied it
      </Button>
    </section>
  );
}

function CreateApiKeyCard() {
  const create = useCreateApiKeyMutation();
  const [name, setName] = React.useState('');
  const [role, setRole] = React.useState<StaffRole>('support');
  const [nameError, setNameError] = React.useState<string>();
  const [roleError, setRoleError] = React.useState<string>();
  const [created, setCreated] = React.useState<{ name: string; secret: string }>();

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (create.isPending) return;
    setRoleError(undefined);
    if (!name.trim()) {
      setNameError('Name is required');
      return;
    }
    setNameError(undefined);
    try {
      const answer = await create.mutateAsync({ name: name.trim(), role });
      setCreated({ name: answer.key.name, secret: answer.secret });
      setName('');
      toast.success('API key created', { description: `"${answer.key.name}" works from now on.` });
    } catch (err) {
      const onName = serverFieldError(err, 'name');
      const onRole = serverFieldError(err, 'role');
      setNameError(onName);
      setRoleError(onRole);
      if (!onName && !onRole)
        toast.error('API key not created', {
          description: err instanceof Error ? err.message : 'Please try again.',
          duration: ERROR_TOAST_MS,
        });
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Create an API key</CardTitle>
        <CardDescription>
          One key per script or integration, named after it, with the least role it needs. A key calls the operator and
          admin actions with its role.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form noValidate onSubmit={submit} className="grid gap-4 sm:grid-cols-[1fr_12rem_auto] sm:items-start">
          <FormField
            id="api-key-name"
            label="Name"
            error={nameError}
            hint="For example: Billing export, or Nightly sync."
          >
            <Input
              {...fieldProps('api-key-name', nameError)}
              aria-describedby={nameError ? 'api-key-name-error' : 'api-key-name-hint'}
              autoComplete="off"
              maxLength={80}
              value={name}
              onChange={(e) => {
                setName(e.target.value);
                setNameError(undefined);
              }}
            />
          </FormField>
          <FormField id="api-key-role" label="Role" error={roleError}>
            <AdminRoleSelect {...fieldProps('api-key-role', roleError)} value={role} onValueChange={setRole} />
          </FormField>
          <Button
            type="submit"
            className="sm:mt-[1.375rem]"
            disabled={create.isPending}
            aria-busy={create.isPending || undefined}
          >
            {create.isPending && <Loader2Icon className="animate-spin" aria-hidden />}
            Create key
          </Button>
        </form>
        {created && <SecretOnce name={created.name} secret={created.secret} onDone={() => setCreated(undefined)} />}
      </CardContent>
    </Card>
  );
}

function RevokeApiKey({ apiKey }: { apiKey: ApiKeyView }) {
  const revoke = useRevokeApiKeyMutation();

  async function confirm() {
    try {
      await revoke.mutateAsync(apiKey.key_id);
      toast.success('API key revoked', { description: `"${apiKey.name}" no longer works.` });
    } catch (err) {
      toast.error('API key not revoked', {
        description: err instanceof Error ? err.message : 'Please try again.',
        duration: ERROR_TOAST_MS,
      });
      return false;
    }
  }

  return (
    <ConfirmDialog
      trigger={
        <Button variant="outline" size="sm" aria-label={`Revoke API key ${apiKey.name}`}>
          Revoke
        </Button>
      }
      title="Revoke this API key?"
      description={`"${apiKey.name}" (${apiKey.prefix}…) stops working at its next call. This cannot be undone: a script that needs access again gets a new key.`}
      confirmLabel="Revoke key"
      onConfirm={confirm}
    />
  );
}

function ApiKeysTable({ keys }: { keys: ApiKeyView[] }) {
  return (
    <AdminTableRegion label="API keys table">
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead>Role</TableHead>
          <TableHead>Prefix</TableHead>
          <TableHead>Created</TableHead>
          <TableHead>Last used</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {keys.map((key) => (
          <TableRow key={key.key_id}>
            <TableCell className="font-medium">{key.name}</TableCell>
            <TableCell>{ROLE_LABELS[key.role]}</TableCell>
            <TableCell className="font-mono text-xs">{key.prefix}…</TableCell>
            <TableCell>{formatInstant(key.created_at)}</TableCell>
            <TableCell>{formatInstant(key.last_used_at)}</TableCell>
            <TableCell>
              {key.revoked_at ? (
                <Badge variant="outline">Revoked {formatInstant(key.revoked_at)}</Badge>
              ) : (
                <Badge variant="secondary">Active</Badge>
              )}
            </TableCell>
            <TableCell>{!key.revoked_at && <RevokeApiKey apiKey={key} />}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </AdminTableRegion>
  );
}

/** API keys: the named keys automation calls with, their last use; create (secret shown once) and revoke. */
export function AdminApiKeysScreen() {
  const keys = useApiKeys();
  return (
    <>
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">API keys</h1>
        <p className="text-muted-foreground">Keys for scripts and integrations, each with a name and a role.</p>
      </div>
      <CreateApiKeyCard />
      <section aria-labelledby="api-keys-title" className="grid min-w-0 grid-cols-1 gap-3">
        <h2 id="api-keys-title" className="text-lg font-semibold">
          Keys
        </h2>
        {keys.data?.legacy_key_set && (
          <Alert role="status">
            <AlertTitle>OPERATOR_TOKEN works as the key "legacy"</AlertTitle>
            <AlertDescription>
              The console cannot revoke it: remove OPERATOR_TOKEN from the server's configuration once every script has
              a key of its own.
            </AlertDescription>
          </Alert>
        )}
        {keys.data ? (
          keys.data.keys.length ? (
            <ApiKeysTable keys={keys.data.keys} />
          ) : (
            <p className="text-sm text-muted-foreground">No API keys yet. Create one above.</p>
          )
        ) : keys.isError ? (
          <AdminLoadError
            title="The API keys could not be loaded"
            error={keys.error}
            onRetry={() => void keys.refetch()}
          />
        ) : (
          <AdminLoadingRows label="Loading the API keys" />
        )}
      </section>
    </>
  );
}
