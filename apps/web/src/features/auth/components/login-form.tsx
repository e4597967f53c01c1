import type { Target } from '@portal/contract';
import { Loader2Icon } from 'lucide-react';
import * as React from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { FormField, fieldProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PasswordInput } from '@/components/ui/password-input';
import { useSignIn } from '../hooks/use-sign-in';
import { decodeHubKey, hubLoginProblem } from '../utils/hub-login';
import type { Notice } from '../utils/login-failure';
import { type LoginForm as LoginValues, loginFormSchema } from '../utils/login-forms';

export interface LoginFormProps {
  target: Target;
  redirect?: string | undefined;
  hubKey?: string | undefined;
  /** lets the Forgot Password section start from the address typed here */
  onEmailChange?: (email: string) => void;
  onSuccess?: () => void;
}

type LoginErrors = Partial<Record<keyof LoginValues, string>>;

/** The first message per field of the form's rules. */
function loginErrors(values: LoginValues): LoginErrors {
  const parsed = loginFormSchema.safeParse(values);
  const errors: LoginErrors = {};
  if (!parsed.success)
    for (const issue of parsed.error.issues) errors[issue.path[0] as keyof LoginValues] ??= issue.message;
  return errors;
}

const noSubscription = () => () => {};
const hasWebAuthn = () => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

export function LoginForm({ target, redirect, hubKey, onEmailChange, onSuccess }: LoginFormProps) {
  const hub = target === 'hub';
  const hubProblem = hub ? hubLoginProblem(redirect, hubKey) : undefined;
  const hubPublicKey = hub ? decodeHubKey(hubKey) : undefined;
  const { signIn, signInWithPasskey, handingToHub, prefetch } = useSignIn({
    target,
    redirect,
    hubPublicKey,
    onSuccess,
  });
  // Only a browser that has WebAuthn is offered a passkey sign-in. The prerendered page (decision
  // 038) assumes one, as every supported browser has it on https and localhost; one that does not
  // drops the button right after hydrating.
  const passkeys = React.useSyncExternalStore(noSubscription, hasWebAuthn, () => true);
  const [passkeyBusy, setPasskeyBusy] = React.useState(false);
  const [failure, setFailure] = React.useState<Notice>();

  // Plain state rather than a form library: this form is on the sign-in page, which should load as
  // little as it can (docs/decisions/025). As before, the rules run on submit, then on every change.
  const [values, setValues] = React.useState<LoginValues>({ email: '', password: '', rememberMe: !hub });
  const [errors, setErrors] = React.useState<LoginErrors>({});
  const [submitted, setSubmitted] = React.useState(false);
  const [isSubmitting, setSubmitting] = React.useState(false);
  const emailRef = React.useRef<HTMLInputElement>(null);
  const passwordRef = React.useRef<HTMLInputElement>(null);

  // What was typed (or filled in by a password manager) into the prerendered form before the app
  // hydrated it (docs/decisions/038) is the form's value: React keeps it on the page, not in state.
  React.useEffect(() => {
    const email = emailRef.current?.value ?? '';
    const password = passwordRef.current?.value ?? '';
    if (email || password) setValues((v) => ({ ...v, email, password }));
  }, []);

  function change(next: LoginValues) {
    setValues(next);
    if (submitted) setErrors(loginErrors(next));
  }

  function onEmailInput(event: React.ChangeEvent<HTMLInputElement>) {
    // spec/000 §4: editing the email clears a form error, and a new email clears the password.
    setFailure(undefined);
    onEmailChange?.(event.target.value);
    change({ ...values, email: event.target.value, password: '' });
  }

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSubmitting) return;
    setSubmitted(true);
    const found = loginErrors(values);
    setErrors(found);
    if (found.email) return emailRef.current?.focus();
    if (found.password) return passwordRef.current?.focus();
    if (hubProblem) return;
    setFailure(undefined);
    setSubmitting(true);
    try {
      const notice = await signIn(values);
      if (notice) setFailure(notice);
    } finally {
      setSubmitting(false);
    }
  }

  async function onPasskey() {
    if (isSubmitting || passkeyBusy || hubProblem) return;
    setFailure(undefined);
    setPasskeyBusy(true);
    try {
      const notice = await signInWithPasskey(values.rememberMe);
      if (notice) setFailure(notice);
    } finally {
      setPasskeyBusy(false);
    }
  }

  const busy = isSubmitting || handingToHub || passkeyBusy;
  const prefetched = React.useRef(false);
  const prefetchCalls = React.useCallback(() => {
    if (prefetched.current) return;
    prefetched.current = true;
    prefetch();
  }, [prefetch]);
  const hubHost = hub && !hubProblem && redirect ? new URL(redirect).host : undefined;

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      // The first keystroke or press in the form starts fetching the sign-in call and the page it
      // leads to, so they are there by the time the person submits; the sign-in page itself loads
      // none of it (docs/decisions/025).
      onInputCapture={prefetchCalls}
      onPointerDownCapture={prefetchCalls}
      className="grid gap-4"
    >
      {hubProblem && (
        <Alert variant="destructive">
          <AlertTitle>This Hub sign-in link cannot be used</AlertTitle>
          <AlertDescription>{hubProblem}</AlertDescription>
        </Alert>
      )}
      {hubHost && (
        <p className="rounded-md border bg-muted/50 px-3 py-2 text-sm text-muted-foreground">
          After you sign in, your credentials are sent encrypted to the Hub on this computer (
          <span className="font-mono text-foreground">{hubHost}</span>). They are not kept in this browser.
        </p>
      )}

      <FormField id="login-email" label="Email" error={errors.email}>
        <Input
          {...fieldProps('login-email', errors.email)}
          type="email"
          autoComplete="username"
          inputMode="email"
          autoFocus
          ref={emailRef}
          name="email"
          value={values.email}
          onChange={onEmailInput}
        />
      </FormField>

      <FormField id="login-password" label="Password" error={errors.password}>
        <PasswordInput
          {...fieldProps('login-password', errors.password)}
          autoComplete="current-password"
          toggleLabel="Show password"
          ref={passwordRef}
          name="password"
          value={values.password}
          onChange={(e) => change({ ...values, password: e.target.value })}
        />
      </FormField>

      {!hub && (
        <div className="flex items-center gap-2">
          <Checkbox
            id="login-remember"
            checked={values.rememberMe}
            onCheckedChange={(checked) => change({ ...values, rememberMe: checked === true })}
          />
          <Label htmlFor="login-remember" className="font-normal">
            Remember me
          </Label>
        </div>
      )}

      <Button type="submit" className="w-full" disabled={busy || Boolean(hubProblem)} aria-busy={busy || undefined}>
        {(isSubmitting || handingToHub) && <Loader2Icon className="animate-spin" aria-hidden />}
        {hub ? 'Sign in to Hub' : 'Sign in to Portal'}
      </Button>

      {passkeys && (
        <>
          <div className="flex items-center gap-3 text-xs text-muted-foreground" aria-hidden>
            <span className="h-px flex-1 bg-border" />
            or
            <span className="h-px flex-1 bg-border" />
          </div>
          <Button
            type="button"
            variant="outline"
            className="w-full"
            onClick={onPasskey}
            disabled={busy || Boolean(hubProblem)}
            aria-busy={passkeyBusy || undefined}
          >
            {passkeyBusy && <Loader2Icon className="animate-spin" aria-hidden />}
            Sign in with a passkey
          </Button>
        </>
      )}

      {handingToHub && (
        <p role="status" className="text-center text-sm text-muted-foreground">
          Handing your sign-in to the Hub…
        </p>
      )}

      {failure && (
        <Alert variant="destructive">
          <AlertTitle>{failure.title}</AlertTitle>
          <AlertDescription>{failure.text}</AlertDescription>
        </Alert>
      )}
    </form>
  );
}
