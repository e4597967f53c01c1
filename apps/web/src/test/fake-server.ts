import { ONE_DAY_S, type PublicUser, type TokenPair } from '@portal/contract';
import { vi } from 'vitest';

/** A JWT-shaped token whose payload holds `exp` (the client reads it, the server would verify it). */
export function fakeJwt(expS: number, id = Math.random().toString(36).slice(2)): string {
  const b64 = (value: object) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ exp: expS, jti: id })}.sig`;
}

export const nowS = () => Math.floor(Date.now() / 1000);

export function tokenPair(accessExpS = nowS() + 900, refreshExpS = nowS() + 7 * ONE_DAY_S): TokenPair {
  return {
    access_token: fakeJwt(accessExpS),
    refresh_token: fakeJwt(refreshExpS),
    access_token_expires_in: 900,
    refresh_token_expires_in: 7 * ONE_DAY_S,
  };
}

export function user(overrides: Partial<PublicUser> = {}): PublicUser {
  return {
    user_id: 'u-1',
    email: 'ada@example.com',
    name: 'Ada',
    year_born: 1990,
    country: 'United Kingdom',
    marketing: false,
    termsagreed: true,
    company: 'Engines',
    profession: '',
    join_date: '2026-01-01',
    email_validated: true,
    ...overrides,
  };
}

export const OK = { Success: true, Code: 0, Description: 'OK' };
export const failure = (code: number, description: string) => ({
  error: { Success: false, Code: code, Description: description },
});

export interface SeenCall {
  path: string;
  action: string;
  body: Record<string, unknown>;
  authorization: string | null;
  csrf: string | null;
}

type Answer = { status?: number; json: unknown };
type Handler = (call: SeenCall) => Answer | Promise<Answer>;

/**
 * A stand-in for the portal behind `fetch`: answers the CSRF GET, and each POST from the handler
 * named by its action. Records every POST, so a test can count calls and read what was sent.
 */
export function fakeServer(handlers: Record<string, Handler>) {
  const calls: SeenCall[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const path = String(input);
    if ((init.method ?? 'GET') === 'GET')
      return new Response(null, { status: 200, headers: { 'x-csrf-token': 'csrf-1' } });
    const headers = new Headers(init.headers);
    const body = JSON.parse(String(init.body)) as Record<string, unknown>;
    const call: SeenCall = {
      path,
      action: String(body.action),
      body,
      authorization: headers.get('authorization'),
      csrf: headers.get('x-csrf-token'),
    };
    calls.push(call);
    const handler = handlers[call.action];
    if (!handler) return new Response(JSON.stringify(failure(109, `no handler for ${call.action}`)), { status: 400 });
    const answer = await handler(call);
    return new Response(JSON.stringify(answer.json), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetch);
  return { fetch, calls, count: (action: string) => calls.filter((c) => c.action === action).length };
}

/** A request that never gets an answer (to hold a screen in its pending state). */
export const never = (): Promise<never> => new Promise<never>(() => {});
