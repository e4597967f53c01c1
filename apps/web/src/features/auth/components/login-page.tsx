import { Link } from '@tanstack/react-router';
import * as React from 'react';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { Separator } from '@/components/ui/separator';
import type { LoginSearch } from '../utils/auth-search';
import { LoginForgotPassword } from './login-forgot-password';
import { LoginForm } from './login-form';

export function LoginPage({ search, cookieNotice }: { search: LoginSearch; cookieNotice?: React.ReactNode }) {
  const hub = search.target === 'hub';
  const typedEmail = React.useRef('');
  return (
    <div className="grid w-full max-w-md gap-4">
      <Card>
        <CardHeader>
          <h1 className="text-2xl font-semibold tracking-tight">Sign in</h1>
          <CardDescription>
            {hub
              ? 'Sign in to connect the Hub on this computer to your account.'
              : 'Sign in to manage your robots, licenses and subscriptions.'}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {cookieNotice}
          <LoginForm
            // A new target or hub link is a new sign-in: start from a clean form.
            key={`${search.target}|${search.redirect ?? ''}|${search.hub_key ?? ''}`}
            target={search.target}
            redirect={search.redirect}
            hubKey={search.hub_key}
            onEmailChange={(email) => {
              typedEmail.current = email;
            }}
          />
          <Separator />
          <LoginForgotPassword defaultOpen={search.forgot} loginEmail={() => typedEmail.current} />
        </CardContent>
        <CardFooter className="justify-center border-t pt-4 text-sm text-muted-foreground">
          <p>
            New here?{' '}
            <Link
              to="/auth/signup"
              className="font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
            >
              Create an account
            </Link>
          </p>
        </CardFooter>
      </Card>
    </div>
  );
}
