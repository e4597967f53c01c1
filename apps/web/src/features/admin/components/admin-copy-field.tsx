import { CheckIcon, CopyIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/lib/toast';

/** A value to hand on (an enrolment link, a key's secret): read-only, selectable, with a copy button. */
export function AdminCopyField({ id, label, value }: { id: string; label: string; value: string }) {
  const [copied, setCopied] = React.useState(false);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      toast.success('Copied', { description: `${label} is on the clipboard.` });
    } catch {
      // A browser that refuses the clipboard still lets the person select the text.
      document.getElementById(id)?.focus();
      (document.getElementById(id) as HTMLInputElement | null)?.select();
      toast.error('Could not copy', { description: 'Select the text and copy it yourself.' });
    }
  }

  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex gap-2">
        <Input
          id={id}
          readOnly
          value={value}
          className="min-w-0 flex-1 font-mono text-xs"
          onFocus={(e) => e.currentTarget.select()}
        />
        <Button type="button" variant="outline" onClick={copy} aria-label={`Copy ${label.toLowerCase()}`}>
          {copied ? <CheckIcon aria-hidden /> : <CopyIcon aria-hidden />}
          Copy
        </Button>
      </div>
    </div>
  );
}
