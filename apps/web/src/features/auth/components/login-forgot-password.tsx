import { Loader2Icon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Disclosure } from '@/components/ui/disclosure';
import { FormField, fieldProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { ERROR_TOAST_MS } from '@/config/constants';
import { toast } from '@/lib/toast';
import { forgotPasswordSchema } from '../utils/login-forms';

export function LoginForgotPassword({
  defaultOpen,
  loginEmail,
}: {
  defaultOpen?: boolean | undefined;
  /** the address typed in the sign-in form, offered when the section opens */
  loginEmail?: () => string;
}) {
  const [open, setOpen] = React.useState(Boolean(defaultOpen));
  const [email, setEmail] = React.useState('');
  const [error, setError] = React.useState<string>();
  const [pending, setPending] = React.useState(false);

  function onOpenChange(value: boolean) {
    setOpen(value);
    if (value && !email) setEmail(loginEmail?.() ?? '');
  }

  async function onRecover(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = forgotPasswordSchema.safeParse({ email });
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? 'Please enter a valid email address';
      setError(message);
      toast.error('Validation Error', { description: message, duration: ERROR_TOAST_MS });
      return;
    }
    setError(undefined);
    setPending(true);
    try {
      // The call (and the action client with it) is fetched when the person asks for a link.
      await (await import('../api/forgot-password')).requestPasswordReset(parsed.data.email);
      toast.success('Password Reset Initiated', { description: 'Check your email to reset your password!' });
    } catch (err) {
      const message = err instanceof Error && err.message ? err.message : 'Failed to reset password. Please try again.';
      toast.error(message, { duration: ERROR_TOAST_MS });
    } finally {
      setPending(false);
    }
  }

  return (
    // The section's trigger is an h3; the hidden h2 keeps the page's heading order unbroken.
    <section aria-labelledby="account-recovery-heading">
      <h2 id="account-recovery-heading" className="sr-only">
        Account recovery
      </h2>
      <Disclosure
        open={open}
        onOpenChange={onOpenChange}
        title="Forgot Password?"
        className="border-b-0"
        contentClassName="px-1"
      >
        <form noValidate onSubmit={onRecover} className="grid gap-3">
          <p className="text-muted-foreground">
            Enter the email of your account and we will send you a link to reset your password.
          </p>
          <FormField id="forgot-email" label="Recovery email" error={error}>
            <Input
              {...fieldProps('forgot-email', error)}
              type="email"
              autoComplete="email"
              inputMode="email"
              value={email}
              onChange={(e) => {
                setEmail(e.target.value);
                setError(undefined);
              }}
            />
          </FormField>
          <Button type="submit" variant="secondary" disabled={pending} aria-busy={pending || undefined}>
            {pending && <Loader2Icon className="animate-spin" aria-hidden />}
            Recover
          </Button>
        </form>
      </Disclosure>
    </section>
  );
}
