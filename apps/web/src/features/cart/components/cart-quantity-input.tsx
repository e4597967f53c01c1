import * as React from 'react';
import { Input } from '@/components/ui/input';
import { commitQuantityInput, digitsOnly } from '@/lib/cart';

/**
 * The cart page's quantity box (spec/001 §2 Cart page): digits only while typing; on blur or Enter
 * a value that is not a number reverts to the previous quantity, anything else sets it.
 */
export function CartQuantityInput({
  quantity,
  label,
  onCommit,
}: {
  quantity: number;
  label: string;
  onCommit: (quantity: number) => void;
}) {
  const [text, setText] = React.useState(String(quantity));
  const [shownFor, setShownFor] = React.useState(quantity);
  // A quantity changed elsewhere (the stepper, the widget, another tab) replaces what the box shows.
  if (shownFor !== quantity) {
    setShownFor(quantity);
    setText(String(quantity));
  }

  function commit() {
    const next = commitQuantityInput(text, quantity);
    setText(String(next));
    if (next !== quantity) onCommit(next);
  }

  return (
    <Input
      type="text"
      inputMode="numeric"
      autoComplete="off"
      aria-label={label}
      value={text}
      onChange={(e) => setText(digitsOnly(e.target.value))}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          commit();
        }
      }}
      className="h-8 w-14 text-center tabular-nums"
    />
  );
}
