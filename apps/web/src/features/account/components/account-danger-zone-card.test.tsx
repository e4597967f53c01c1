import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOGOUT_BROADCAST_REPEATS_MS } from '@/config/constants';
import { AuthProvider } from '@/lib/auth';
import { storeSession } from '@/lib/session';
import { failure, fakeServer, OK, tokenPair, user } from '@/test/fake-server';
import { renderScreen, settle } from '@/test/render-screen';
import { AccountDangerZoneCard } from './account-danger-zone-card';

const EMAIL = 'ada@example.com';
const signedIn = () => ({ json: { user: user({ email: EMAIL }), token_pair: tokenPair(), error: OK } });

beforeEach(() => {
  storeSession(tokenPair(), user({ email: EMAIL }), true);
});
afterEach(() => {
  vi.useRealTimers();
});

async function openDialog() {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Delete account' }));
  });
  const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
  return {
    dialog,
    phrase: within(dialog).getByLabelText('Type "delete my account" to confirm') as HTMLInputElement,
    password: within(dialog).getByLabelText('Password') as HTMLInputElement,
    button: within(dialog).getByRole('button', { name: 'Permanently delete account' }) as HTMLButtonElement,
  };
}

async function renderCard(onSignedOut = vi.fn()) {
  await renderScreen(
    <AuthProvider onSignedOut={onSignedOut} onChange={() => {}}>
      <AccountDangerZoneCard email={EMAIL} />
    </AuthProvider>,
  );
  return openDialog();
}

describe('Danger Zone (spec/000 §5 Delete account)', () => {
  it('the button waits for the phrase (any case) and a password; a refused password keeps the dialog open', async () => {
    const server = fakeServer({
      'get-self': signedIn,
      UserDelete: () => ({ status: 401, json: failure(3, 'user.password: Incorrect password') }),
    });
    const { dialog, phrase, password, button } = await renderCard();
    expect(dialog.textContent).toContain(`This permanently deletes the account ${EMAIL} and signs you out.`);
    expect(button.disabled).toBe(true);
    fireEvent.change(phrase, { target: { value: 'delete my acount' } });
    fireEvent.change(password, { target: { value: 'Wrong-Pass-1!' } });
    expect(button.disabled).toBe(true);
    fireEvent.change(phrase, { target: { value: ' Delete My Account ' } });
    expect(button.disabled).toBe(false);

    await act(async () => {
      fireEvent.click(button);
    });
    await settle();
    expect(await screen.findByText('Failed to delete account. Please check your password and try again.')).toBeTruthy();
    expect(screen.getByText('Error')).toBeTruthy();
    expect(server.count('UserDelete')).toBe(1);
    expect(server.calls.find((c) => c.action === 'UserDelete')?.body.user).toEqual({
      email: EMAIL,
      password: 'Wrong-Pass-1!',
    });
    expect(screen.getByRole('dialog', { name: 'Delete your account?' })).toBeTruthy();
    expect(button.disabled).toBe(false);
  });

  it('a confirmation sent without the phrase is refused with "Invalid Confirmation", and nothing is deleted', async () => {
    const server = fakeServer({ 'get-self': signedIn, UserDelete: () => ({ json: { error: OK } }) });
    const { phrase, password, button } = await renderCard();
    fireEvent.change(phrase, { target: { value: 'delete it' } });
    fireEvent.change(password, { target: { value: 'Robot-Pass-42!' } });
    // The disabled button stops a click; a submission that gets past it (Enter in a field, a script) meets the rule.
    await act(async () => {
      fireEvent.submit(button.closest('form') as HTMLFormElement);
    });
    expect(await screen.findByText('Invalid Confirmation')).toBeTruthy();
    expect(screen.getByText("Please type 'delete my account' to confirm deletion")).toBeTruthy();
    expect(server.count('UserDelete')).toBe(0);
    expect(screen.getByRole('dialog', { name: 'Delete your account?' })).toBeTruthy();
  });

  it('deletes, closes the dialog and signs out; closing clears what was typed', async () => {
    // The sign-out repeats its broadcast to other tabs on timers: fake ones are run out here, so
    // none is left to reach a later test file in this worker.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const onSignedOut = vi.fn();
    const server = fakeServer({
      'get-self': signedIn,
      UserDelete: () => ({ json: { error: OK } }),
      logout: () => ({ json: { error: OK } }),
      'revoke-token-pair': () => ({ json: { error: OK } }),
    });
    const first = await renderCard(onSignedOut);
    fireEvent.change(first.phrase, { target: { value: 'delete my account' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    const { phrase, password, button } = await openDialog();
    expect(phrase.value).toBe('');

    fireEvent.change(phrase, { target: { value: 'delete my account' } });
    fireEvent.change(password, { target: { value: 'Robot-Pass-42!' } });
    await act(async () => {
      fireEvent.click(button);
    });
    expect(await screen.findByText('Account Deleted')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    await vi.waitFor(() => expect(onSignedOut).toHaveBeenCalledTimes(1));
    expect(server.count('UserDelete')).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(Math.max(...LOGOUT_BROADCAST_REPEATS_MS)));
  });
});
