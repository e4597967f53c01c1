import { Link } from '@tanstack/react-router';
import { CheckIcon, CopyIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { CART_TEXT } from '../cart-text';

type CopyState = 'idle' | 'copied' | 'failed';

/** One driver's next step on Payment Successful: its pairing code, a copy button, and where the Hub is. */
export function CartPairingCode({ model, code }: { model: string; code: string }) {
  const [state, setState] = React.useState<CopyState>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setState('copied');
    } catch {
      // Refused (no permission, an insecure page): the code stays on screen to be copied by hand.
      setState('failed');
    }
  };
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-2" data-testid="pairing">
      <span className="min-w-0">
        <span className="font-medium">{model}</span>
        {code ? (
          <>
            {' '}
            <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-sm" data-testid="pairing-code">
              {code}
            </code>
          </>
        ) : (
          <span className="text-muted-foreground"> {CART_TEXT.alreadyPaired}</span>
        )}
      </span>
      {code && (
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={copy}
          aria-label={`${CART_TEXT.copyCode} ${model}`}
          aria-pressed={state === 'copied'}
        >
          {state === 'copied' ? <CheckIcon aria-hidden /> : <CopyIcon aria-hidden />}
          {state === 'copied' ? CART_TEXT.copied : CART_TEXT.copy}
        </Button>
      )}
      <span role="status" className="w-full text-xs text-muted-foreground empty:hidden">
        {state === 'failed' ? CART_TEXT.copyFailed : ''}
      </span>
    </li>
  );
}

/** "Pair your robot": the codes of the drivers just bought and a link to Downloads for the Hub. */
export function CartPairingSteps({ pairings }: { pairings: readonly { robot_model: string; pair_code: string }[] }) {
  return (
    <section aria-labelledby="pair-your-robot" className="rounded-lg border p-4">
      <h2 id="pair-your-robot" className="font-semibold">
        {CART_TEXT.pairTitle}
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        {CART_TEXT.pairIntro}{' '}
        <Link to="/dashboard/downloads" className="font-medium text-primary underline underline-offset-4">
          {CART_TEXT.downloads}
        </Link>
        .
      </p>
      <ul aria-label={CART_TEXT.pairTitle} className="mt-2 divide-y">
        {pairings.map((p, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a receipt never reorders, and paired licenses share the code ''
          <CartPairingCode key={`${p.pair_code}-${i}`} model={p.robot_model} code={p.pair_code} />
        ))}
      </ul>
    </section>
  );
}
