import { ClientError } from '@portal/client';
import type { SignInSession } from '@portal/contract';

/**
 * The security area's own rules (issue 15 part 3): how a session is named and what a failed passkey
 * ceremony tells the user. A browser's refusal is told apart by its DOMException name, a server's by
 * the error's kind, never by a message.
 */

/** "Chrome on macOS", or the browser alone when the system is unknown. */
export function sessionTitle(session: Pick<SignInSession, 'browser' | 'os'>): string {
  return session.os === 'Unknown system' ? session.browser : `${session.browser} on ${session.os}`;
}

export const PASSKEY_ADD_FAILED = 'The passkey could not be added. Please try again.';

/** What to tell the user when adding a passkey failed, in the browser or on the server. */
export function passkeyAddFailure(err: unknown): string {
  if (err instanceof ClientError) {
    if (err.kind === 'conflict') return 'This passkey is registered already.';
    if (err.kind === 'rate_limited') return 'Too many attempts. Please try again later.';
    if (err.kind === 'forbidden') return 'Passkeys are not available on this portal.';
    return PASSKEY_ADD_FAILED;
  }
  const name = err instanceof Error ? err.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError')
    return 'The request was cancelled or timed out. No passkey was added.';
  if (name === 'InvalidStateError') return 'This device already holds a passkey for your account.';
  if (name === 'NotSupportedError') return 'This device cannot make a passkey for this portal.';
  return PASSKEY_ADD_FAILED;
}
