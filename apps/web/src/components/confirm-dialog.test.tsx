import { act, fireEvent, render, screen } from '@testing-library/react';
import * as React from 'react';
import { describe, expect, it, vi } from 'vitest';
import { type ConfirmChoice, ConfirmDialog } from './confirm-dialog';

/** A promise the test settles itself, to hold the dialog in its pending state. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

function WithTrigger(props: Partial<React.ComponentProps<typeof ConfirmDialog>>) {
  return (
    <ConfirmDialog
      trigger={<button type="button">Remove</button>}
      title="Remove this passkey?"
      description="It will no longer sign in to your account."
      confirmLabel="Remove passkey"
      onConfirm={() => undefined}
      {...props}
    />
  );
}

const dialog = () => screen.queryByRole('dialog', { name: 'Remove this passkey?' });
const confirmButton = () => screen.getByRole('button', { name: 'Remove passkey' });
const cancelButton = () => screen.getByRole('button', { name: 'Cancel' });

async function press(element: HTMLElement) {
  await act(async () => {
    fireEvent.click(element);
  });
}

async function pressEscape() {
  await act(async () => {
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
  });
}

/** Radix gives the focus back a tick after the dialog unmounts. */
const tick = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

describe('ConfirmDialog', () => {
  it('opens from its trigger with its title and description; Escape closes it and the focus returns', async () => {
    render(<WithTrigger />);
    const trigger = screen.getByRole('button', { name: 'Remove' });
    trigger.focus();
    await press(trigger);
    expect(dialog()).not.toBeNull();
    expect(dialog()?.getAttribute('aria-describedby')).toBe(
      screen.getByText('It will no longer sign in to your account.').id,
    );
    // The focus moves into the dialog, to Cancel: the safe choice comes first.
    expect(document.activeElement).toBe(cancelButton());

    await pressEscape();
    expect(dialog()).toBeNull();
    await tick();
    expect(document.activeElement).toBe(trigger);
  });

  it('Cancel closes it without acting, and the focus returns to the trigger', async () => {
    const onConfirm = vi.fn();
    render(<WithTrigger onConfirm={onConfirm} />);
    const trigger = screen.getByRole('button', { name: 'Remove' });
    trigger.focus();
    await press(trigger);
    await press(cancelButton());
    expect(dialog()).toBeNull();
    expect(onConfirm).not.toHaveBeenCalled();
    await tick();
    expect(document.activeElement).toBe(trigger);
  });

  it('runs the action once however often it is pressed, disables both buttons while it runs, then closes', async () => {
    const action = deferred<void>();
    const onConfirm = vi.fn(() => action.promise);
    render(<WithTrigger onConfirm={onConfirm} />);
    await press(screen.getByRole('button', { name: 'Remove' }));

    const button = confirmButton();
    await act(async () => {
      fireEvent.click(button);
      fireEvent.click(button);
      fireEvent.submit(button.closest('form') as HTMLFormElement);
    });
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onConfirm).toHaveBeenCalledWith({ dontShowAgain: false });
    expect(confirmButton()).toHaveProperty('disabled', true);
    expect(confirmButton().getAttribute('aria-busy')).toBe('true');
    expect(cancelButton()).toHaveProperty('disabled', true);

    // Neither Escape nor the close button leaves while it runs.
    await pressEscape();
    await press(screen.getByRole('button', { name: 'Close' }));
    expect(dialog()).not.toBeNull();

    await act(async () => action.resolve());
    expect(dialog()).toBeNull();
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('shows its pending label while the action runs', async () => {
    const action = deferred<void>();
    render(<WithTrigger pendingLabel="Removing..." onConfirm={() => action.promise} />);
    await press(screen.getByRole('button', { name: 'Remove' }));
    await press(confirmButton());
    expect(screen.getByRole('button', { name: 'Removing...' })).toHaveProperty('disabled', true);
    await act(async () => action.resolve());
    expect(dialog()).toBeNull();
  });

  it('an action that answers false keeps it open to try again', async () => {
    const onConfirm = vi.fn(async () => false);
    render(<WithTrigger onConfirm={onConfirm} />);
    await press(screen.getByRole('button', { name: 'Remove' }));
    await press(confirmButton());
    expect(dialog()).not.toBeNull();
    expect(confirmButton()).toHaveProperty('disabled', false);
    expect(cancelButton()).toHaveProperty('disabled', false);
    await press(confirmButton());
    expect(onConfirm).toHaveBeenCalledTimes(2);
  });

  it('a synchronous action closes it at once, with no pending state', async () => {
    const onConfirm = vi.fn();
    render(<WithTrigger onConfirm={onConfirm} />);
    await press(screen.getByRole('button', { name: 'Remove' }));
    await press(confirmButton());
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(dialog()).toBeNull();
  });

  it('holds the fields a confirmation needs, and keeps the button disabled until they are right', async () => {
    function Typed() {
      const [text, setText] = React.useState('');
      return (
        <WithTrigger confirmDisabled={text !== 'yes'}>
          <label>
            Type yes
            <input value={text} onChange={(e) => setText(e.target.value)} />
          </label>
        </WithTrigger>
      );
    }
    render(<Typed />);
    await press(screen.getByRole('button', { name: 'Remove' }));
    // The first field gets the focus.
    expect(document.activeElement).toBe(screen.getByLabelText('Type yes'));
    expect(confirmButton()).toHaveProperty('disabled', true);
    fireEvent.change(screen.getByLabelText('Type yes'), { target: { value: 'yes' } });
    expect(confirmButton()).toHaveProperty('disabled', false);
  });

  describe('opened by its owner, with "Don\'t show this message again"', () => {
    function Owned({ onConfirm }: { onConfirm: (choice: ConfirmChoice) => void }) {
      const [open, setOpen] = React.useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Update
          </button>
          <ConfirmDialog
            open={open}
            onOpenChange={setOpen}
            title="Confirm Sync"
            description="You are about to sync 1 license."
            confirmLabel="Sync Licenses"
            variant="default"
            offerDontShowAgain
            onConfirm={onConfirm}
          />
        </>
      );
    }
    const checkbox = () => screen.getByRole('checkbox', { name: "Don't show this message again" });

    it('hands the choice to the action, and gives the focus back to what opened it', async () => {
      const onConfirm = vi.fn();
      render(<Owned onConfirm={onConfirm} />);
      const opener = screen.getByRole('button', { name: 'Update' });
      opener.focus();
      await press(opener);
      expect(checkbox().getAttribute('aria-checked')).toBe('false');
      await press(checkbox());
      await press(screen.getByRole('button', { name: 'Sync Licenses' }));
      expect(onConfirm).toHaveBeenCalledWith({ dontShowAgain: true });
      expect(screen.queryByRole('dialog')).toBeNull();
      await tick();
      expect(document.activeElement).toBe(opener);
    });

    it('starts unticked each time it opens', async () => {
      const onConfirm = vi.fn();
      render(<Owned onConfirm={onConfirm} />);
      screen.getByRole('button', { name: 'Update' }).focus();
      await press(screen.getByRole('button', { name: 'Update' }));
      await press(checkbox());
      await pressEscape();
      expect(screen.queryByRole('dialog')).toBeNull();
      await tick();
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Update' }));
      await press(screen.getByRole('button', { name: 'Update' }));
      expect(checkbox().getAttribute('aria-checked')).toBe('false');
      await press(screen.getByRole('button', { name: 'Sync Licenses' }));
      expect(onConfirm).toHaveBeenCalledWith({ dontShowAgain: false });
    });
  });
});
