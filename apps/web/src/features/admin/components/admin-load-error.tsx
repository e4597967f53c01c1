import { isClientError } from '@portal/client';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';

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

/** A list still loading: placeholder rows, announced by `label` ("Loading the staff"). */
export function AdminLoadingRows({ label, rows = 2 }: { label: string; rows?: number }) {
  return (
    <div className="grid gap-2" role="status" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders with nothing else to tell them apart
        <Skeleton key={i} className="h-10 w-full" />
      ))}
    </div>
  );
}
