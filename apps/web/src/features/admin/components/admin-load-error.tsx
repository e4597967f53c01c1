import { isClientError } from '@portal/client';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

/** A list that could not be loaded: what happened and a way to try again. */
export function AdminLoadError({ title, error, onRetry }: { title: string; error: unknown; onRetry: () => void }) {
  const forbidden = isClientError(error) && error.status === 403;
  return (
    <Alert variant="destructive">
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription className="grid gap-3">
        <p>
          {forbidden
            ? 'Your role does not allow this. Ask an admin if you need it.'
            : error instanceof Error && error.message
              ? error.message
              : 'Please try again.'}
        </p>
        {!forbidden && (
          <Button variant="outline" size="sm" className="w-fit" onClick={onRetry}>
            Try again
          </Button>
        )}
      </AlertDescription>
    </Alert>
  );
}
