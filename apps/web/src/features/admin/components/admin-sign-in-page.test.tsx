import { act, fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider } from '@/lib/auth';
import { readSession } from '@/lib/session';
import { tokenPair, user } from '@/test/fake-server';
import { renderScreen, settle } from '@/test/render-screen';
import { AdminSignInPage, type PasskeyOutcome } from './admin-sign-in-page';

beforeEach(() => {
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
});

function renderPage(signIn: () => Promise<PasskeyOutcome>, redirect?: string) {
  return renderScreen(
    <AuthProvider onSignedOut={() => {}} onChange={() => {}}>
      <AdminSignInPage signInWithPasskey={signIn} redirect={redirect} />
    </AuthProvider>,
    '/admin/sign-in',
  );
}

describe('staff sign-in', () => {
  it('shows why a passkey sign-in failed, and keeps no session', async () => {
    await renderPage(async () => ({
      ok: false,
      title: 'Passkey Not Accepted',
      text: 'Ask an admin for a new enrolment link.',
    }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign in with a passkey' })));
    expect(screen.getByText('Passkey Not Accepted')).toBeTruthy();
    expect(screen.getByText('Ask an admin for a new enrolment link.')).toBeTruthy();
    expect(readSession().refreshToken).toBeNull();
  });

  it('stores the session for this tab only and goes to the console address it came from', async () => {
    const pair = tokenPair();
    const { router } = await renderPage(async () => ({ ok: true, user: user(), token_pair: pair }), '/admin/audit');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign in with a passkey' })));
    await settle(60);
    expect(sessionStorage.getItem('refresh_token')).toBe(pair.refresh_token);
    expect(localStorage.getItem('refresh_token')).toBeNull();
    expect(router.state.location.pathname).toBe('/admin/audit');
  });

  it('says so in a browser without passkeys', async () => {
    vi.stubGlobal('PublicKeyCredential', undefined);
    await renderPage(async () => ({ ok: false, title: '', text: '' }));
    expect(screen.getByText('This browser cannot use passkeys.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Sign in with a passkey' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
