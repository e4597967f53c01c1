import * as React from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

/** A search box whose label is for screen readers only (the placeholder says it to everyone else). */
export function SearchField({
  label,
  ...props
}: { label: string } & Omit<React.ComponentProps<typeof Input>, 'id' | 'type'>) {
  const id = React.useId();
  return (
    <>
      <Label htmlFor={id} className="sr-only">
        {label}
      </Label>
      <Input id={id} type="search" {...props} />
    </>
  );
}
