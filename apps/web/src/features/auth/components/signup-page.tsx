import { Link } from '@tanstack/react-router';
import { MailCheckIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { AuthStatusHeading } from './auth-status-heading';
import { SignupForm } from './signup-form';

const linkClass =
  'font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring';

export function SignupPage() {
  const [registeredEmail, setRegisteredEmail] = React.useState<string>();

  if (registeredEmail)
    return (
      <div className="grid w-full max-w-md gap-4">
        <Card>
          <CardHeader>
            <AuthStatusHeading icon={MailCheckIcon} tone="primary">
              Check your email
            </AuthStatusHeading>
            <CardDescription role="status">
              If <span className="font-medium text-foreground">{registeredEmail}</span> can be used for a new account,
              we have sent a verification link to it.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-2 text-sm text-muted-foreground">
            <p>Open the link in the email to verify your address, then sign in. The link works once.</p>
            <p>No email after a few minutes? Check your spam folder, or sign up again to receive a new link.</p>
          </CardContent>
          <CardFooter>
            <Button asChild className="w-full">
              <Link to="/auth/login" search={{ target: 'portal' }}>
                Go to sign in
              </Link>
            </Button>
          </CardFooter>
        </Card>
      </div>
    );

  return (
    <div className="grid w-full max-w-2xl gap-4">
      <Card>
        <CardHeader>
          <h1 className="text-2xl font-semibold tracking-tight">Create an account</h1>
          <CardDescription>Manage your robots, licenses and subscriptions in one place.</CardDescription>
        </CardHeader>
        <CardContent>
          <SignupForm onRegistered={setRegisteredEmail} />
        </CardContent>
        <CardFooter className="justify-center border-t pt-4 text-sm text-muted-foreground">
          <p>
            Already have an account?{' '}
            <Link to="/auth/login" search={{ target: 'portal' }} className={linkClass}>
              Sign in
            </Link>
          </p>
        </CardFooter>
      </Card>
    </div>
  );
}
