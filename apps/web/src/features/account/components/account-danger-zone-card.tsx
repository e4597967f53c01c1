import { Loader2Icon, TriangleAlertIcon } from 'lucide-react';
import * as React from 'react';
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
  const [open, setOpen] = React.useState(false);
  const [confirmation, setConfirmation] = React.useState('');
  const [password, setPassword] = React.useState('');
  const valid = deleteConfirmationValid(confirmation, password);

  function onOpenChange(next: boolean) {
    if (mutation.isPending) return;
    setOpen(next);
    if (!next) {
      setConfirmation('');
      setPassword('');
    }
  }

  async function onDelete(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!deleteAccountFormSchema.safeParse({ confirmation, password }).success) {
      toast.error('Invalid Confirmation', {
        description: "Please type 'delete my account' to confirm deletion",
        duration: ERROR_TOAST_MS,
      });
      return;
    }
    try {
      await mutation.mutateAsync({ email, password });
      toast.success('Account Deleted', { description: 'Your account and its data have been deleted.' });
      setOpen(false);
      await auth.logout();
    } catch {
      toast.error('Error', {
        description: 'Failed to delete account. Please check your password and try again.',
        duration: ERROR_TOAST_MS,
      });
    }
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
        <Dialog open={open} onOpenChange={onOpenChange}>
          <DialogTrigger asChild>
            <Button variant="destructive">Delete account</Button>
          </DialogTrigger>
          <DialogContent>
            <form noValidate onSubmit={onDelete} className="grid gap-4">
              <DialogHeader>
                <DialogTitle>Delete your account?</DialogTitle>
                <DialogDescription>
                  This permanently deletes the account {email} and signs you out. Type{' '}
                  <strong className="font-semibold text-foreground">{DELETE_CONFIRMATION_TEXT}</strong> and enter your
                  password to confirm.
                </DialogDescription>
              </DialogHeader>
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
              <DialogFooter>
                <DialogClose asChild>
                  <Button variant="outline" disabled={mutation.isPending}>
                    Cancel
                  </Button>
                </DialogClose>
                <Button
                  type="submit"
                  variant="destructive"
                  disabled={!valid || mutation.isPending}
                  aria-busy={mutation.isPending || undefined}
                >
                  {mutation.isPending && <Loader2Icon className="animate-spin" aria-hidden />}
                  Permanently delete account
                </Button>
              </DialogFooter>
            </form>
          </DialogContent>
        </Dialog>
      </CardContent>
    </Card>
  );
}
