import { cn } from '@/lib/utils';
import type { PairingFilter } from '../robots-cards';

export const PAIRING_FILTERS: readonly { value: PairingFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'paired', label: 'Paired' },
  { value: 'unpaired', label: 'Unpaired' },
];

/** The All / Paired / Unpaired badges: toggle buttons, one pressed at a time. */
export function RobotsFilterBadges({
  value,
  onChange,
}: {
  value: PairingFilter;
  onChange: (value: PairingFilter) => void;
}) {
  return (
    <fieldset className="m-0 flex min-w-0 flex-wrap gap-2 border-0 p-0">
      <legend className="sr-only">Filter robots</legend>
      {PAIRING_FILTERS.map((f) => {
        const pressed = f.value === value;
        return (
          <button
            key={f.value}
            type="button"
            aria-pressed={pressed}
            onClick={() => onChange(f.value)}
            className={cn(
              'inline-flex h-7 items-center rounded-full border px-3 text-xs font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
              pressed
                ? 'border-transparent bg-primary text-primary-foreground'
                : 'bg-background text-foreground hover:bg-accent hover:text-accent-foreground',
            )}
          >
            {f.label}
          </button>
        );
      })}
    </fieldset>
  );
}
