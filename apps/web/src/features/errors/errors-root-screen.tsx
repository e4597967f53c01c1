import type { ErrorComponentProps } from '@tanstack/react-router';
import { TriangleAlertIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { env } from '@/config/env';
import { formatPageTitle } from '@/lib/page-title';
import { errorMessageOf } from './errors-details';

/** The root route's errorComponent (spec/000 §2 Root error screen). */
export function RootErrorScreen({ error }: ErrorComponentProps) {
  const message = errorMessageOf(error);
  return (
    <main className="flex min-h-dvh items-center justify-center p-6">
      {/* An error has no route head() of its own: this <title> replaces the screen's while shown. */}
      <title>{formatPageTitle('Error')}</title>
      <div className="flex max-w-md flex-col items-center gap-4 text-center">
        <TriangleAlertIcon aria-hidden className="size-10 text-destructive" />
        <h1 className="text-2xl font-semibold">Error!</h1>
        <p className="text-muted-foreground">
          An unhandled error occurred. Please go back to the dashboard and try again.
        </p>
        {!env.production && message && (
          <pre className="max-w-full overflow-x-auto rounded-md bg-muted p-3 text-left text-xs whitespace-pre-wrap">
            {message}
          </pre>
        )}
        {/* A full page load rather than router navigation: the router itself may be what failed. */}
        <Button asChild>
          <a href="/dashboard">Go to dashboard</a>
        </Button>
      </div>
    </main>
  );
}
