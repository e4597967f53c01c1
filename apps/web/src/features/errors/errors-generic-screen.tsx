import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { type ErrorComponentProps, useRouter } from '@tanstack/react-router';
import { RefreshCwIcon, TriangleAlertIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { formatPageTitle } from '@/lib/page-title';
import { cn } from '@/lib/utils';
import { errorIdOf, errorMessageOf } from './errors-details';

/**
 * The in-app error screen (spec/000 §2): use as the errorComponent of the signed-in layout or of
 * any route. `errorId` overrides an id carried by the error itself.
 */
export function GenericErrorScreen({
  error,
  reset,
  errorId,
  className,
}: Pick<ErrorComponentProps, 'error' | 'reset'> & { errorId?: string; className?: string }) {
  const router = useRouter();
  const queryReset = useQueryErrorResetBoundary();
  const message = errorMessageOf(error);
  const id = errorId ?? errorIdOf(error);

  const tryAgain = () => {
    // Loader errors clear when the router reloads; render and query errors need their boundaries reset.
    queryReset.reset();
    reset();
    void router.invalidate();
  };

  return (
    <div
      role="alert"
      className={cn('mx-auto flex max-w-lg flex-col items-center gap-4 px-4 py-12 text-center', className)}
    >
      {/* An error has no route head() of its own: this <title> replaces the screen's while shown. */}
      <title>{formatPageTitle('Error')}</title>
      <TriangleAlertIcon aria-hidden className="size-10 text-destructive" />
      <h1 className="text-2xl font-semibold">Something went wrong!</h1>
      <p className="text-muted-foreground">An unexpected error has occurred.</p>
      {message && (
        <p
          className="max-w-full rounded-md bg-muted px-3 py-2 font-mono text-sm break-words"
          data-testid="error-message"
        >
          {message}
        </p>
      )}
      {id && (
        <p className="text-xs text-muted-foreground">
          Error ID: <span className="font-mono select-all">{id}</span>
        </p>
      )}
      <Button onClick={tryAgain}>
        <RefreshCwIcon aria-hidden />
        Try again
      </Button>
    </div>
  );
}

/**
 * The same screen as a whole page, for an errorComponent whose route renders the page frame itself
 * (the signed-in layout): when the layout fails there is no shell, so this supplies the main landmark.
 */
export function GenericErrorPage(props: Pick<ErrorComponentProps, 'error' | 'reset'> & { errorId?: string }) {
  return (
    <main id="main-content" className="flex min-h-dvh items-center justify-center">
      <GenericErrorScreen {...props} />
    </main>
  );
}
