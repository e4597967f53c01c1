import { Loader2Icon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';

/** The checkbox that turns a confirmation off for good (spec/001 §4, Confirm Sync). */
export const DONT_SHOW_AGAIN = "Don't show this message again";

export interface ConfirmChoice {
  /** whether "Don't show this message again" was ticked */
  dontShowAgain: boolean;
}

export interface ConfirmDialogProps {
  /**
   * The button that opens the dialog and gets the focus back when it closes. Without one, the owner
   * opens it through `open`, and the focus goes back to what had it before.
   */
  trigger?: React.ReactElement;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  title: React.ReactNode;
  titleClassName?: string;
  description: React.ReactNode;
  /** What the confirmation needs besides a click (a typed phrase, a password), under the description. */
  children?: React.ReactNode;
  confirmLabel: React.ReactNode;
  /** The confirm button's text while the action runs; without one it keeps its label after a spinner. */
  pendingLabel?: React.ReactNode;
  variant?: 'default' | 'destructive';
  /** Keeps the confirm button disabled, as while a typed confirmation is not yet right. */
  confirmDisabled?: boolean;
  /** Offers "Don't show this message again"; onConfirm is told whether it was ticked. */
  offerDontShowAgain?: boolean;
  /**
   * The action, run once a confirmation. It reports its own outcome (toasts). While a promise it
   * returns is pending, both buttons are disabled and the dialog cannot be closed; when it settles
   * the dialog closes, unless it answered `false` (a refusal the person can correct and retry) or
   * rejected (an action is expected to catch and report its own failures).
   */
  onConfirm: (choice: ConfirmChoice) => unknown;
}

const isPromise = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';

/**
 * Confirm, then act: a title, what the action does, Cancel and the action's button. Escape, the
 * close button and Cancel close it, except while the action runs.
 */
export function ConfirmDialog({
  trigger,
  open: openProp,
  onOpenChange,
  title,
  titleClassName,
  description,
  children,
  confirmLabel,
  pendingLabel,
  variant = 'destructive',
  confirmDisabled = false,
  offerDontShowAgain = false,
  onConfirm,
}: ConfirmDialogProps) {
  const [openState, setOpenState] = React.useState(false);
  const open = openProp ?? openState;
  const [pending, setPending] = React.useState(false);
  // A ref as well as state: a second press before the re-render must not run the action again.
  const running = React.useRef(false);
  const [dontShowAgain, setDontShowAgain] = React.useState(false);
  const returnFocusTo = React.useRef<HTMLElement | null>(null);
  const checkboxId = React.useId();

  function setOpen(next: boolean) {
    if (running.current) return;
    setDontShowAgain(false);
    if (openProp === undefined) setOpenState(next);
    onOpenChange?.(next);
  }

  async function confirm(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (running.current) return;
    const result = onConfirm({ dontShowAgain });
    if (!isPromise(result)) {
      if (result !== false) setOpen(false);
      return;
    }
    running.current = true;
    setPending(true);
    let answer: unknown = false;
    try {
      answer = await result;
    } finally {
      running.current = false;
      setPending(false);
    }
    if (answer !== false) setOpen(false);
  }

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      {trigger && <DialogTrigger asChild>{trigger}</DialogTrigger>}
      <DialogContent
        onOpenAutoFocus={() => {
          returnFocusTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
        }}
        onCloseAutoFocus={(event) => {
          // With a trigger, Radix gives it the focus back; without one the focus would fall to the page.
          if (trigger || !returnFocusTo.current?.isConnected) return;
          event.preventDefault();
          returnFocusTo.current.focus();
        }}
      >
        <form noValidate onSubmit={confirm} className="grid gap-4">
          <DialogHeader>
            <DialogTitle className={titleClassName}>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          {children}
          {offerDontShowAgain && (
            <div className="flex items-center gap-2">
              <Checkbox
                id={checkboxId}
                checked={dontShowAgain}
                onCheckedChange={(checked) => setDontShowAgain(checked === true)}
                disabled={pending}
              />
              <Label htmlFor={checkboxId}>{DONT_SHOW_AGAIN}</Label>
            </div>
          )}
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline" disabled={pending}>
                Cancel
              </Button>
            </DialogClose>
            <Button
              type="submit"
              variant={variant}
              disabled={pending || confirmDisabled}
              aria-busy={pending || undefined}
            >
              {pending && pendingLabel !== undefined ? (
                pendingLabel
              ) : (
                <>
                  {pending && <Loader2Icon className="animate-spin" aria-hidden />}
                  {confirmLabel}
                </>
              )}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
