import { Link } from '@tanstack/react-router';
import { CircleAlertIcon, CircleCheckIcon, Loader2Icon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { useVerifyEmailMutation } from '../api/verify-email';
import { AuthStatusHeading } from './auth-status-heading';

export function VerifyEmailPage({ token }: { token: string }) {
  const mutation = useVerifyEmailMutation();
  const { mutate } = mutation;
  // The token is single-use: StrictMode's second effect run must not spend it again and fail.
  const sentFor = React.useRef<string | null>(null);
  React.useEffect(() => {
    if (sentFor.current === token) return;
    sentFor.current = token;
    mutate(token);
  }, [token, mutate]);

  const pending = mutation.isIdle || mutation.isPending;

  return (
    <div className="grid w-full max-w-md gap-4">
      <Card>
        {pending ? (
          <CardHeader>
            <h1 className="text-2xl font-semibold tracking-tight">Verifying your email</h1>
            <CardDescription role="status" className="flex items-center gap-2">
              <Loader2Icon className="size-4 animate-spin" aria-hidden />
              Checking your verification link…
            </CardDescription>
          </CardHeader>
        ) : mutation.isSuccess ? (
          <>
            <CardHeader>
              <AuthStatusHeading icon={CircleCheckIcon} tone="success">
                Email verified
              </AuthStatusHeading>
              <CardDescription>
                {mutation.data.user?.email ? (
                  <>
                    <span className="font-medium text-foreground">{mutation.data.user.email}</span> is verified.
                  </>
                ) : (
                  'Your email address is verified.'
                )}{' '}
                You can now sign in to your account.
              </CardDescription>
            </CardHeader>
            <CardFooter>
              <Button asChild className="w-full">
                <Link to="/auth/login" search={{ target: 'portal' }}>
                  Sign in
                </Link>
              </Button>
            </CardFooter>
          </>
        ) : (
          <>
            <CardHeader>
              <AuthStatusHeading icon={CircleAlertIcon} tone="destructive">
                Link not valid
              </AuthStatusHeading>
              <CardDescription role="alert">
                This verification link is invalid, has expired or was already used.
              </CardDescription>
            </CardHeader>
            <CardContent className="text-sm text-muted-foreground">
              <p>
                If you already verified your email, just sign in. Otherwise sign up again with the same email and we
                will send you a new link.
              </p>
            </CardContent>
            <CardFooter className="flex-col gap-2 sm:flex-row">
              <Button asChild className="w-full sm:flex-1">
                <Link to="/auth/login" search={{ target: 'portal' }}>
                  Sign in
                </Link>
              </Button>
              <Button asChild variant="outline" className="w-full sm:flex-1">
                <Link to="/auth/signup">Sign up again</Link>
              </Button>
            </CardFooter>
          </>
        )}
      </Card>
    </div>
  );
}
