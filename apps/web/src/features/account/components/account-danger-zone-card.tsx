import { TriangleAlertIcon } from 'lucide-react';
import * as React from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { ERROR_TOAST_MS } from '@/config/constants';
import { useAuth } from '@/lib/auth';
import { toast } from '@/lib/toast';
import { DELETE_CONFIRMATION_TEXT, deleteAccountFormSchema, deleteConfirmationValid } from '../account-forms';
import { useDeleteAccountMutation } from '../api/delete-account';

/** Danger Zone: delete the account after a typed confirmation and the password (spec/000 §5). */
export function AccountDangerZoneCard({ email }: { email: string }) {
  const auth = useAuth();
  const mutation = useDeleteAccountMutation();
  const [confirmation, setConfirmation] = React.useState('');
  const [password, setPassword] = React.useState('');
  const valid = deleteConfirmationValid(confirmation, password);

  function onOpenChange(open: boolean) {
    if (open) return;
    setConfirmation('');
    setPassword('');
  }

  async function onDelete() {
    if (!deleteAccountFormSchema.safeParse({ confirmation, password }).success) {
      toast.error('Invalid Confirmation', {
        description: "Please type 'delete my account' to confirm deletion",
        duration: ERROR_TOAST_MS,
      });
      return false;
    }
    try {
      await mutation.mutateAsync({ email, password });
    } catch {
      toast.error('Error', {
        description: 'Failed to delete account. Please check your password and try again.',
        duration: ERROR_TOAST_MS,
      });
      return false;
    }
    toast.success('Account Deleted', { description: 'Your account and its data have been deleted.' });
    // The dialog closes now; signing out leaves the page.
    void auth.logout();
  }

  return (
    <Card className="border-destructive/50">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-destructive">
          <TriangleAlertIcon className="size-5" aria-hidden />
          Danger Zone
        </CardTitle>
        <CardDescription>
          Deleting your account removes your profile and signs you out everywhere. This cannot be undone.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ConfirmDialog
          trigger={<Button variant="destructive">Delete account</Button>}
          onOpenChange={onOpenChange}
          title="Delete your account?"
          description={
            <>
              This permanently deletes the account {email} and signs you out. Type{' '}
              <strong className="font-semibold text-foreground">{DELETE_CONFIRMATION_TEXT}</strong> and enter your
              password to confirm.
            </>
          }
          confirmLabel="Permanently delete account"
          confirmDisabled={!valid}
          onConfirm={onDelete}
        >
          <FormField id="delete-confirmation" label={`Type "${DELETE_CONFIRMATION_TEXT}" to confirm`}>
            <Input
              id="delete-confirmation"
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              value={confirmation}
              onChange={(e) => setConfirmation(e.target.value)}
            />
          </FormField>
          <FormField id="delete-password" label="Password">
            <PasswordInput
              id="delete-password"
              autoComplete="current-password"
              toggleLabel="Show password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </FormField>
        </ConfirmDialog>
      </CardContent>
    </Card>
  );
}
