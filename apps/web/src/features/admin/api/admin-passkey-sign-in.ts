import { isClientError } from '@portal/client';
import { type RequestOf, security } from '@portal/contract';
import { apiClient } from '@/lib/api-client';
import type { PasskeyOutcome } from '../components/admin-sign-in-page';

/**
 * The console's passkey sign-in: the portal's own (PasskeySignInOptions, the browser's prompt,
 * PasskeySignIn with target portal), as features/auth/api/passkey-login.ts makes it. Not imported
 * from there: a second importer outside the sign-in page would split that page's chunk and make
 * /auth/login heavier (bench/bundle-size.ts, docs/decisions/073). The WebAuthn helper loads on use.
 */
export async function staffPasskeySignIn(): Promise<PasskeyOutcome> {
  try {
    const { options } = await apiClient.call(security, 'PasskeySignInOptions', {});
    const { startAuthentication } = await import('@simplewebauthn/browser');
    const credential = await startAuthentication({
      optionsJSON: options as Parameters<typeof startAuthentication>[0]['optionsJSON'],
    });
    type Credential = RequestOf<typeof security, 'PasskeySignIn'>['credential'];
    const res = await apiClient.call(security, 'PasskeySignIn', {
      credential: credential as Credential,
      target: 'portal',
      remember_me: false,
    });
    if (res.target !== 'portal') return { ok: false, ...SIGN_IN_NOTICES.unavailable };
    return { ok: true, user: res.user, token_pair: res.token_pair };
  } catch (err) {
    return { ok: false, ...staffPasskeyNotice(err) };
  }
}

export const SIGN_IN_NOTICES = {
  cancelled: { title: 'Passkey Sign-in Cancelled', text: 'No passkey was used. Try again when you are ready.' },
  refused: {
    title: 'Passkey Not Accepted',
    text: 'This passkey cannot sign you in: it may have been removed. Ask an admin for a new enrolment link.',
  },
  locked: {
    title: 'Account Locked',
    text: 'Your account is temporarily locked due to too many failed attempts. Please try again later.',
  },
  unavailable: {
    title: 'Passkey Sign-in Failed',
    text: 'This browser could not use a passkey here. Please try again.',
  },
} as const;

/** A failed staff sign-in as the page tells it: the browser's refusals by name, the server's by kind. */
export function staffPasskeyNotice(err: unknown): { title: string; text: string } {
  if (isClientError(err)) {
    if (err.kind === 'unauthenticated') return SIGN_IN_NOTICES.refused;
    if (err.kind === 'locked') return SIGN_IN_NOTICES.locked;
    return { title: 'Passkey Sign-in Failed', text: err.message || 'Please try again.' };
  }
  const name = err instanceof Error ? err.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError') return SIGN_IN_NOTICES.cancelled;
  return SIGN_IN_NOTICES.unavailable;
}
