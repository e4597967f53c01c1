import { Link } from '@tanstack/react-router';
import { BookOpenIcon, CircleAlertIcon, CircleCheckIcon, MonitorIcon } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { env } from '@/config/env';
import type { CompleteSearch } from '../utils/auth-search';
import { AuthStatusHeading } from './auth-status-heading';

/** Where the hub sends the browser after it received (or failed to receive) the credentials. */
export function AuthCompletePage({ search }: { search: CompleteSearch }) {
  return (
    <div className="grid w-full max-w-lg gap-4">
      <Card>
        {search.success ? (
          <>
            <CardHeader>
              <AuthStatusHeading icon={CircleCheckIcon} tone="success">
                Authentication Complete
              </AuthStatusHeading>
              <CardDescription>
                The Hub on this computer is now signed in to your account. You can close this tab.
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-3">
              <h2 className="text-sm font-medium">Next steps</h2>
              <ul className="grid gap-3 text-sm">
                <li className="flex gap-3 rounded-md border p-3">
                  <MonitorIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
                  <span>
                    Open the Hub from the system status area (the tray or menu bar icon) to connect your robots.
                  </span>
                </li>
                <li className="flex gap-3 rounded-md border p-3">
                  <BookOpenIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
                  <span>
                    Visit the{' '}
                    <a
                      href={env.docsUrl}
                      target="_blank"
                      rel="noreferrer"
                      className="font-medium text-primary underline-offset-4 hover:underline"
                    >
                      documentation
                      <span className="sr-only"> (opens in a new tab)</span>
                    </a>{' '}
                    to learn what the Hub can do.
                  </span>
                </li>
              </ul>
            </CardContent>
          </>
        ) : (
          <>
            <CardHeader>
              <h1 className="text-2xl font-semibold tracking-tight">Authentication failed</h1>
              <CardDescription>The Hub could not be signed in.</CardDescription>
            </CardHeader>
            <CardContent>
              <Alert variant="destructive">
                <CircleAlertIcon aria-hidden />
                <AlertTitle>Error</AlertTitle>
                <AlertDescription>{search.error_message || 'Error, but no error provided'}</AlertDescription>
              </Alert>
            </CardContent>
          </>
        )}
        <CardFooter className="justify-end">
          <Button asChild>
            <Link to="/dashboard">Return to Dashboard</Link>
          </Button>
        </CardFooter>
      </Card>
    </div>
  );
}
