import { ClientError } from '@portal/client';
import { license, useraction } from '@portal/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failure, fakeServer, nowS, OK, tokenPair } from '@/test/fake-server';
import { apiClient } from './api-client';
import { onSessionEvent, readSession, type SessionEvent, storeSession } from './session';

const EMAIL = 'ada@example.com';

function signIn(accessExpS: number) {
  const pair = tokenPair(accessExpS);
  storeSession(pair, { email: EMAIL, user_id: 'u-1' }, true);
  return pair;
}

/** The refresh answer: a rotated pair, counted. */
function rotating() {
  let fresh = tokenPair();
  return {
    get latest() {
      return fresh;
    },
    handler: () => {
      fresh = tokenPair();
      return { json: { tokenPair: fresh, valid: true, error: OK } };
    },
  };
}

afterEach(() => vi.unstubAllGlobals());

/** A successful GetLicences answer with no licenses. */
const LICENSES = { user_licenses: { email: EMAIL }, error: OK };

describe('the web client and its session', () => {
  it('refreshes an expired access token once before the call, and sends the new one', async () => {
    signIn(nowS() - 10);
    const refresh = rotating();
    const server = fakeServer({
      'refresh-access-token': refresh.handler,
      GetLicences: () => ({ json: LICENSES }),
    });

    await apiClient.call(license, 'GetLicences', { email: EMAIL });

    expect(server.calls.map((c) => c.action)).toEqual(['refresh-access-token', 'GetLicences']);
    expect(server.calls[1]?.authorization).toBe(`Bearer ${refresh.latest.access_token}`);
    expect(server.calls.every((c) => c.csrf === 'csrf-1')).toBe(true);
    expect(readSession().accessToken).toBe(refresh.latest.access_token);
  });

  it('puts the token in the body for /api/useraction, not in a header', async () => {
    const pair = signIn(nowS() + 900);
    const server = fakeServer({ UserUpdatePassword: () => ({ json: { error: OK } }) });

    await apiClient.call(useraction, 'UserUpdatePassword', {
      tokentype: 1,
      user: { email: EMAIL, password: 'old-Passw0rd' },
      password: 'new-Passw0rd!',
    });

    expect(server.calls[0]?.body.token).toBe(pair.access_token);
    expect(server.calls[0]?.authorization).toBeNull();
  });

  it('lets two concurrent calls share one refresh', async () => {
    signIn(nowS() - 10);
    const refresh = rotating();
    const server = fakeServer({
      'refresh-access-token': refresh.handler,
      GetLicences: () => ({ json: LICENSES }),
    });

    await Promise.all([
      apiClient.call(license, 'GetLicences', { email: EMAIL }),
      apiClient.call(license, 'GetLicences', { email: EMAIL }),
    ]);

    expect(server.count('refresh-access-token')).toBe(1);
    expect(server.count('GetLicences')).toBe(2);
  });

  it('refreshes once on a 401 and retries the call with the new token', async () => {
    const first = signIn(nowS() + 900);
    const refresh = rotating();
    const server = fakeServer({
      'refresh-access-token': refresh.handler,
      GetLicences: (call) =>
        call.authorization === `Bearer ${first.access_token}`
          ? { status: 401, json: failure(101, 'Token expired') }
          : { json: LICENSES },
    });

    await apiClient.call(license, 'GetLicences', { email: EMAIL });

    expect(server.calls.map((c) => c.action)).toEqual(['GetLicences', 'refresh-access-token', 'GetLicences']);
    expect(server.calls[2]?.authorization).toBe(`Bearer ${refresh.latest.access_token}`);
  });

  it('ends the session in this tab and the others when the server refuses the refresh', async () => {
    signIn(nowS() - 10);
    const server = fakeServer({
      'refresh-access-token': () => ({ status: 401, json: failure(101, 'Refresh token revoked') }),
    });
    const otherTab = new BroadcastChannel('portal-session');
    const toldOtherTabs = new Promise<SessionEvent>((resolve) => {
      otherTab.onmessage = (e: MessageEvent<SessionEvent>) => resolve(e.data);
    });
    const here: SessionEvent[] = [];
    const stop = onSessionEvent((event) => here.push(event));

    try {
      const failed = await apiClient.call(license, 'GetLicences', { email: EMAIL }).catch((err: unknown) => err);

      expect(failed).toBeInstanceOf(ClientError);
      expect((failed as ClientError).kind).toBe('unauthenticated');
      expect(server.count('GetLicences')).toBe(0);
      expect(readSession()).toEqual({ accessToken: null, refreshToken: null, email: null, userId: null });
      expect(here).toContainEqual({ type: 'logout' });
      expect(await toldOtherTabs).toEqual({ type: 'logout' });
    } finally {
      stop();
      otherTab.close();
    }
  });

  it('does not refresh or retry a refusal with code 32 (email not verified)', async () => {
    signIn(nowS() + 900);
    const server = fakeServer({
      'refresh-access-token': rotating().handler,
      GetLicences: () => ({ status: 403, json: failure(32, 'Email not verified') }),
    });

    const failed = await apiClient.call(license, 'GetLicences', { email: EMAIL }).catch((err: unknown) => err);

    expect((failed as ClientError).kind).toBe('unverified');
    expect(server.calls.map((c) => c.action)).toEqual(['GetLicences']);
  });
});
