import * as React from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormField, fieldProps } from '@/components/ui/form-field';
import { Textarea } from '@/components/ui/textarea';
import { ERROR_TOAST_MS } from '@/config/constants';
import { serverFieldError } from '@/lib/server-field-error';
import { toast } from '@/lib/toast';

/** The reason every operator action asks for, as the server checks it (3 to 500 characters, trimmed). */
export function reasonError(reason: string): string | undefined {
  const length = reason.trim().length;
  if (!length) return 'Reason is required';
  if (length < 3) return 'Reason must be at least 3 characters';
  if (length > 500) return 'Reason must be at most 500 characters';
  return undefined;
}

/** A field of the action besides the reason: its check before the call, and the server's word on it. */
export interface ActionField {
  name: string;
  check: () => string | undefined;
}

export interface ReasonDialogProps {
  trigger: React.ReactElement;
  title: string;
  /** what the action does, said before it is done */
  effect: React.ReactNode;
  confirmLabel: string;
  variant?: 'default' | 'destructive';
  /** the action's own fields, rendered above the reason; `errors` holds their messages by name */
  fields?: (errors: Record<string, string | undefined>) => React.ReactNode;
  checks?: ActionField[];
  confirmDisabled?: boolean;
  /** runs the action with the reason; answers the success toast's title and text */
  run: (reason: string) => Promise<{ title: string; description?: string }>;
  failureTitle: string;
  onClosed?: () => void;
}

/**
 * An operator action behind the one confirm dialog: what it does, its own fields, and the reason
 * (required, kept in the audit entry). Errors sit under their fields; the dialog stays open to fix them.
 */
export function AdminReasonDialog({
  trigger,
  title,
  effect,
  confirmLabel,
  variant = 'default',
  fields,
  checks = [],
  confirmDisabled,
  run,
  failureTitle,
  onClosed,
}: ReasonDialogProps) {
  const id = React.useId();
  const reasonId = `${id}-reason`;
  const [reason, setReason] = React.useState('');
  const [errors, setErrors] = React.useState<Record<string, string | undefined>>({});

  async function confirm() {
    const found: Record<string, string | undefined> = { reason: reasonError(reason) };
    for (const field of checks) found[field.name] = field.check();
    setErrors(found);
    if (Object.values(found).some(Boolean)) return false;
    try {
      const done = await run(reason.trim());
      toast.success(done.title, done.description ? { description: done.description } : undefined);
      setReason('');
    } catch (err) {
      const server: Record<string, string | undefined> = {};
      for (const name of ['reason', ...checks.map((c) => c.name)]) server[name] = serverFieldError(err, name);
      setErrors(server);
      if (!Object.values(server).some(Boolean))
        toast.error(failureTitle, {
          description: err instanceof Error ? err.message : 'Please try again.',
          duration: ERROR_TOAST_MS,
        });
      return false;
    }
  }

  return (
    <ConfirmDialog
      trigger={trigger}
      onOpenChange={(open) => {
        if (open) return;
        setErrors({});
        onClosed?.();
      }}
      title={title}
      description={effect}
      confirmLabel={confirmLabel}
      variant={variant}
      confirmDisabled={confirmDisabled}
      onConfirm={confirm}
    >
      <div className="grid gap-4">
        {fields?.(errors)}
        <FormField
          id={reasonId}
          label="Reason"
          error={errors.reason}
          hint="3 to 500 characters, kept in the audit trail."
        >
          <Textarea
            {...fieldProps(reasonId, errors.reason)}
            rows={3}
            value={reason}
            onChange={(e) => {
              setReason(e.target.value);
              setErrors((prev) => ({ ...prev, reason: undefined }));
            }}
          />
        </FormField>
      </div>
    </ConfirmDialog>
  );
}
