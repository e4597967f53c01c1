/**
 * What shows while the start-up session check runs. index.html holds the same markup in #app, so
 * it paints with the HTML, before any script (loading-indicator.test.tsx keeps the two the same).
 */
export function LoadingIndicator() {
  return (
    <div className="flex min-h-dvh items-center justify-center" role="status" aria-live="polite">
      <div className="flex flex-col items-center gap-3 text-muted-foreground">
        <span className="size-8 animate-spin rounded-full border-2 border-current border-t-transparent" aria-hidden />
        <span>Loading...</span>
      </div>
    </div>
  );
}
