import { CheckIcon } from 'lucide-react';
import * as React from 'react';
import { cn } from '@/lib/utils';

type CheckedState = boolean | 'indeterminate';

/**
 * A checkbox as Radix's Checkbox renders it (`button role="checkbox"`, `aria-checked`,
 * `data-state`, Space toggles, Enter does not, the check mark shown only when checked), for the
 * controlled and uncontrolled uses the app has. Written out so that the sign-in page needs no
 * primitive library for its one checkbox (docs/decisions/034). It does not post a value with a
 * native form: every caller keeps its state in React.
 */
export function Checkbox({
  className,
  checked: checkedProp,
  defaultChecked,
  onCheckedChange,
  onClick,
  onKeyDown,
  disabled,
  ...props
}: Omit<React.ComponentProps<'button'>, 'value' | 'defaultChecked'> & {
  checked?: CheckedState;
  defaultChecked?: CheckedState;
  onCheckedChange?: (checked: CheckedState) => void;
}) {
  const [uncontrolled, setUncontrolled] = React.useState<CheckedState>(defaultChecked ?? false);
  const checked = checkedProp ?? uncontrolled;
  const state = checked === 'indeterminate' ? 'indeterminate' : checked ? 'checked' : 'unchecked';
  return (
    // biome-ignore lint/a11y/useSemanticElements: a styled button with the checkbox role, as the app's checkboxes have always been (Radix's markup)
    <button
      type="button"
      role="checkbox"
      aria-checked={checked === 'indeterminate' ? 'mixed' : checked}
      data-state={state}
      data-disabled={disabled ? '' : undefined}
      disabled={disabled}
      value="on"
      data-slot="checkbox"
      className={cn(
        'peer size-4 shrink-0 rounded-[4px] border border-input shadow-xs disabled:cursor-not-allowed disabled:opacity-50 data-[state=checked]:border-primary data-[state=checked]:bg-primary data-[state=checked]:text-primary-foreground',
        className,
      )}
      {...props}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        // WAI-ARIA: a checkbox toggles on Space only.
        if (!event.defaultPrevented && event.key === 'Enter') event.preventDefault();
      }}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented) return;
        const next = checked === 'indeterminate' ? true : !checked;
        if (checkedProp === undefined) setUncontrolled(next);
        onCheckedChange?.(next);
      }}
    >
      {checked !== false && (
        <span
          data-state={state}
          data-disabled={disabled ? '' : undefined}
          className="flex items-center justify-center text-current"
          style={{ pointerEvents: 'none' }}
        >
          <CheckIcon className="size-3.5" />
        </span>
      )}
    </button>
  );
}
