import { EyeIcon, EyeOffIcon } from 'lucide-react';
import * as React from 'react';
import { cn } from '@/lib/utils';
import { Input } from './input';

/**
 * A password field with a show/hide toggle. The toggle keeps one name ("Show <field>") and reports
 * its state with aria-pressed, so a screen reader hears "Show new password, toggle button, pressed".
 */
export function PasswordInput({
  className,
  toggleLabel,
  ...props
}: Omit<React.ComponentProps<'input'>, 'type'> & { toggleLabel: string }) {
  const [visible, setVisible] = React.useState(false);
  return (
    <div className="relative">
      <Input type={visible ? 'text' : 'password'} className={cn('pr-10', className)} {...props} />
      <button
        type="button"
        aria-label={toggleLabel}
        aria-pressed={visible}
        onClick={() => setVisible((v) => !v)}
        className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-md text-muted-foreground hover:text-foreground focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-ring"
      >
        {visible ? <EyeOffIcon className="size-4" aria-hidden /> : <EyeIcon className="size-4" aria-hidden />}
      </button>
    </div>
  );
}
