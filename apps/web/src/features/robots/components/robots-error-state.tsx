import { TriangleAlertIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';

export const ERROR_TEXT = { title: 'Something went wrong', tryAgain: 'Try Again' } as const;

/** The error state of spec/001 §2: "Something went wrong", the reason, and a "Try Again" button. */
export function RobotsErrorState({ error, retry }: { error: Error; retry: () => void }) {
  return (
    <div
      role="alert"
      className="mx-auto flex max-w-md flex-col items-center gap-3 rounded-xl border bg-card p-8 text-center"
    >
      <TriangleAlertIcon aria-hidden className="size-8 text-destructive" />
      <h2 className="text-lg font-semibold">{ERROR_TEXT.title}</h2>
      <p className="text-sm text-muted-foreground">{error.message}</p>
      <Button onClick={retry}>{ERROR_TEXT.tryAgain}</Button>
    </div>
  );
}
