import * as React from 'react';
import type { ExternalToast, ToasterProps } from 'sonner';

/**
 * The app's toasts (sonner), fetched on first use: most page loads show none, and the library is a
 * sixth of what the sign-in page would load (docs/decisions/025). Until sonner is here, a toast
 * waits for it; once it is, toasts show at once. The toaster mounts when sonner arrives and shows
 * every toast still active, so none is lost on the way.
 */

type Sonner = typeof import('sonner');

let sonner: Sonner | undefined;
let loading: Promise<Sonner> | undefined;
const onLoaded = new Set<(s: Sonner) => void>();

export function loadToasts(): Promise<Sonner> {
  loading ??= import('sonner').then((s) => {
    sonner = s;
    for (const listener of onLoaded) listener(s);
    return s;
  });
  return loading;
}

function withSonner(show: (s: Sonner) => void): void {
  if (sonner) show(sonner);
  else
    loadToasts()
      .then(show)
      .catch(() => undefined);
}

type Message = React.ReactNode;

export const toast = {
  success: (message: Message, options?: ExternalToast) => withSonner((s) => s.toast.success(message, options)),
  error: (message: Message, options?: ExternalToast) => withSonner((s) => s.toast.error(message, options)),
};

/** sonner's Toaster, mounted once sonner has been fetched for a first toast. */
export function Toaster(props: ToasterProps) {
  const [loaded, setLoaded] = React.useState(sonner);
  React.useEffect(() => {
    if (sonner) setLoaded(sonner);
    onLoaded.add(setLoaded);
    return () => {
      onLoaded.delete(setLoaded);
    };
  }, []);
  return loaded ? <loaded.Toaster {...props} /> : null;
}
