import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failure, fakeServer, OK, tokenPair, user } from '@/test/fake-server';
import { AuthProvider, useAuth } from './auth';
import { readSession, storeSession } from './session';

function Status() {
  const auth = useAuth();
  return <p data-testid="status">{auth.status === 'authenticated' ? `in as ${auth.user?.email}` : auth.status}</p>;
}

function renderAuth() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <AuthProvider onSignedOut={() => {}} onChange={() => {}}>
        <Status />
      </AuthProvider>
    </QueryClientProvider>,
  );
}

const stored = tokenPair();

afterEach(() => vi.unstubAllGlobals());

describe('AuthProvider at start-up (spec/000 §4 Session)', () => {
  it('asks get-self with the stored refresh token and signs the user in with the rotated pair', async () => {
    storeSession(stored, user(), true);
    const rotated = tokenPair();
    const server = fakeServer({ 'get-self': () => ({ json: { user: user(), token_pair: rotated, error: OK } }) });

    renderAuth();

    expect(screen.getByTestId('status').textContent).toBe('loading');
    expect(await screen.findByText('in as ada@example.com')).toBeTruthy();
    expect(server.calls[0]?.body.token_pair).toEqual({ refresh_token: stored.refresh_token });
    expect(readSession().refreshToken).toBe(rotated.refresh_token);
  });

  it('clears the stored session when the server refuses it', async () => {
    storeSession(stored, user(), true);
    fakeServer({ 'get-self': () => ({ status: 401, json: failure(101, 'Refresh token revoked') }) });

    renderAuth();

    expect(await screen.findByText('unauthenticated')).toBeTruthy();
    expect(readSession().refreshToken).toBeNull();
    expect(localStorage.length).toBe(0);
  });

  it('clears the session of a user whose email is not verified', async () => {
    storeSession(stored, user(), true);
    fakeServer({
      'get-self': () => ({ json: { user: user({ email_validated: false }), token_pair: tokenPair(), error: OK } }),
    });

    renderAuth();

    expect(await screen.findByText('unauthenticated')).toBeTruthy();
    expect(readSession().refreshToken).toBeNull();
  });

  it('keeps the stored session when the server could not be reached', async () => {
    storeSession(stored, user(), true);
    fakeServer({
      'get-self': () => {
        throw new TypeError('Failed to fetch');
      },
    });

    renderAuth();

    expect(await screen.findByText('unauthenticated')).toBeTruthy();
    expect(readSession().refreshToken).toBe(stored.refresh_token);
  });

  it.each([
    ['the page abandoned it mid-answer', new DOMException('The operation was aborted.', 'AbortError')],
    ['its answer was cut off', new TypeError('network error')],
  ])('keeps the stored session when get-self was answered but %s (issue 32)', async (_label, reason) => {
    storeSession(stored, user(), true);
    const answer = JSON.stringify({ user: user(), token_pair: tokenPair(), error: OK });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_input: RequestInfo | URL, init: RequestInit = {}) =>
        (init.method ?? 'GET') === 'GET'
          ? new Response(null, { headers: { 'x-csrf-token': 'csrf-1' } })
          : new Response(
              new ReadableStream<Uint8Array>({
                start(controller) {
                  controller.enqueue(new TextEncoder().encode(answer.slice(0, 30)));
                  controller.error(reason);
                },
              }),
              { headers: { 'content-type': 'application/json' } },
            ),
      ),
    );

    renderAuth();

    expect(await screen.findByText('unauthenticated')).toBeTruthy();
    expect(readSession().refreshToken).toBe(stored.refresh_token);
  });

  it('clears the stored session when get-self completed with an answer that is not the contract', async () => {
    storeSession(stored, user(), true);
    fakeServer({ 'get-self': () => ({ json: { user: 'nobody', error: OK } }) });

    renderAuth();

    expect(await screen.findByText('unauthenticated')).toBeTruthy();
    expect(readSession().refreshToken).toBeNull();
  });

  it('is signed out at once without a stored session, without calling the server', async () => {
    const server = fakeServer({});

    renderAuth();

    // From the first render: a prerendered page hydrates signed out (docs/decisions/038).
    expect(screen.getByTestId('status').textContent).toBe('unauthenticated');
    expect(await screen.findByText('unauthenticated')).toBeTruthy();
    expect(server.fetch).not.toHaveBeenCalled();
  });
});

describe('AuthProvider tells the app how the session changed (the router re-checks its guards)', () => {
  it('from loading to signed in at start-up, then from signed in to signed out, each once', async () => {
    storeSession(stored, user(), true);
    fakeServer({ 'get-self': () => ({ json: { user: user(), token_pair: tokenPair(), error: OK } }) });
    const changes: [string, string][] = [];
    let clear: () => void = () => {};
    function Clearer() {
      clear = useAuth().clear;
      return null;
    }
    render(
      <QueryClientProvider client={new QueryClient()}>
        <AuthProvider
          onSignedOut={() => {}}
          onChange={(previous, next) => changes.push([previous.status, next.status])}
        >
          <Status />
          <Clearer />
        </AuthProvider>
      </QueryClientProvider>,
    );
    expect(await screen.findByText('in as ada@example.com')).toBeTruthy();
    // onChange runs in an effect after the render that shows the text: on a busy machine, a moment later.
    await waitFor(() => expect(changes).toEqual([['loading', 'authenticated']]));
    act(() => clear());
    expect(await screen.findByText('unauthenticated')).toBeTruthy();
    await waitFor(() =>
      expect(changes).toEqual([
        ['loading', 'authenticated'],
        ['authenticated', 'unauthenticated'],
      ]),
    );
  });
});
