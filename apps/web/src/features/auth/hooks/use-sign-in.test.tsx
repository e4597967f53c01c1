import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type * as React from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider } from '@/lib/auth';
import { readSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { failure, fakeServer, OK, tokenPair, user } from '@/test/fake-server';
import { type SignInOptions, useSignIn } from './use-sign-in';

const navigate = vi.fn(async (_to: unknown) => {});
vi.mock('@tanstack/react-router', () => ({ useNavigate: () => navigate, useRouter: () => ({}) }));
vi.mock('@/lib/toast', () => ({
  toast: { success: vi.fn(), error: vi.fn() },
  loadToasts: vi.fn(async () => undefined),
}));

const input = { email: 'ada@example.com', password: 'Passw0rd!', rememberMe: true };

function wrapper({ children }: { children: React.ReactNode }) {
  return (
    <QueryClientProvider client={new QueryClient()}>
      <AuthProvider onSignedOut={() => {}} onChange={() => {}}>
        {children}
      </AuthProvider>
    </QueryClientProvider>
  );
}

function renderSignIn(options: SignInOptions) {
  return renderHook(() => useSignIn(options), { wrapper });
}

beforeEach(() => {
  navigate.mockClear();
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => vi.unstubAllGlobals());

describe('useSignIn (spec/000 §4 Login)', () => {
  it('stores the portal session, toasts Login Successful and goes to the redirect', async () => {
    const pair = tokenPair();
    const server = fakeServer({
      login: () => ({ json: { target: 'portal', user: user(), token_pair: pair, error: OK } }),
    });
    const { result } = renderSignIn({ target: 'portal', redirect: '/dashboard/downloads' });

    let notice: unknown;
    await act(async () => {
      notice = await result.current.signIn(input);
    });

    expect(notice).toBeUndefined();
    expect(server.calls[0]?.body).toMatchObject({ target: 'portal', user: { email: input.email }, remember_me: true });
    expect(readSession()).toMatchObject({ accessToken: pair.access_token, refreshToken: pair.refresh_token });
    expect(toast.success).toHaveBeenCalledWith('Login Successful', { description: 'Welcome back!' });
    expect(navigate).toHaveBeenCalledWith({ href: '/dashboard/downloads', replace: true });
  });

  it('shows Account Locked for code 45, whatever the message says', async () => {
    fakeServer({ login: () => ({ status: 423, json: failure(45, 'Invalid email or password') }) });
    const { result } = renderSignIn({ target: 'portal' });

    let notice: unknown;
    await act(async () => {
      notice = await result.current.signIn(input);
    });

    expect(notice).toMatchObject({ title: 'Account Locked' });
    expect(toast.error).toHaveBeenCalledWith('Account Locked', {
      description: 'Your account is temporarily locked due to too many failed attempts. Please try again later.',
      duration: 5_000,
    });
    expect(navigate).not.toHaveBeenCalled();
    expect(readSession().refreshToken).toBeNull();
  });

  it.each([
    ['a refusal with code 32', () => ({ status: 403, json: failure(32, 'Forbidden') })],
    [
      'a user whose email is not validated',
      () => ({
        json: { target: 'portal', user: user({ email_validated: false }), token_pair: tokenPair(), error: OK },
      }),
    ],
  ])('asks for email verification after %s, and keeps no session', async (_label, login) => {
    fakeServer({ login });
    const { result } = renderSignIn({ target: 'portal' });

    let notice: unknown;
    await act(async () => {
      notice = await result.current.signIn(input);
    });

    expect(notice).toMatchObject({ title: 'Email Verification Required' });
    expect(toast.error).toHaveBeenCalledWith('Email Verification Required', expect.anything());
    expect(readSession().refreshToken).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('posts the hub credentials to the hub loopback address, and keeps nothing here', async () => {
    const server = fakeServer({ login: () => ({ json: { target: 'hub', enc_creds: 'jwe-for-the-hub', error: OK } }) });
    const submitted: HTMLFormElement[] = [];
    vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (this: HTMLFormElement) {
      submitted.push(this);
    });
    const onSuccess = vi.fn();
    const { result } = renderSignIn({
      target: 'hub',
      redirect: 'http://127.0.0.1:53123/callback',
      hubPublicKey: '{"kty":"EC"}',
      onSuccess,
    });

    await act(async () => {
      await result.current.signIn(input);
    });

    expect(server.calls[0]?.body).toMatchObject({ target: 'hub', hub_public_key: '{"kty":"EC"}' });
    expect(submitted).toHaveLength(1);
    expect(submitted[0]?.action).toBe('http://127.0.0.1:53123/callback');
    expect(submitted[0]?.method).toBe('post');
    expect(new FormData(submitted[0]).get('enc_creds')).toBe('jwe-for-the-hub');
    await waitFor(() => expect(result.current.handingToHub).toBe(true));
    expect(onSuccess).toHaveBeenCalledOnce();
    expect(readSession().refreshToken).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });
});
