import { ClientError } from '@portal/client';
import { LoginRejectedError, loginFailureNotice, type Notice } from './login-failure';

/**
 * How a failed passkey sign-in is shown (issue 15 part 3). The browser's refusals are told apart by
 * their DOMException name; the server's by the error's kind. A refusal of the passkey itself (401) is
 * most often a passkey removed from the account, so the notice says what to do about that. Account
 * refusals (unverified, locked, disabled) read as they do for a password sign-in.
 */
export const PASSKEY_NOTICES = {
  cancelled: {
    title: 'Passkey Sign-in Cancelled',
    text: 'No passkey was used. Try again, or sign in with your email and password.',
  },
  refused: {
    title: 'Passkey Not Accepted',
    text: 'This passkey cannot sign you in. It may have been removed from your account: sign in with your email and password, and add it again on your profile page.',
  },
  unavailable: {
    title: 'Passkey Sign-in Failed',
    text: 'This browser could not use a passkey here. Sign in with your email and password.',
  },
} as const satisfies Record<string, Notice>;

export function passkeyFailureNotice(err: unknown): Notice {
  if (err instanceof LoginRejectedError) return err.notice;
  if (err instanceof ClientError)
    return err.kind === 'unauthenticated' ? PASSKEY_NOTICES.refused : loginFailureNotice(err);
  const name = err instanceof Error ? err.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError') return PASSKEY_NOTICES.cancelled;
  return PASSKEY_NOTICES.unavailable;
}
